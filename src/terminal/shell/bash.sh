# t4a shell integration for bash, loaded with --rcfile. Runs the user's own startup files first,
# then marks prompts and commands with OSC 133 (A prompt, B input, C output, D;code done) and the
# seed's OSC 7777;done;code, each carrying this session's nonce so printed look-alikes are ignored.
if [ -n "$T4A_LOGIN" ]; then
  [ -r /etc/profile ] && . /etc/profile
  for __t4a_f in ~/.bash_profile ~/.bash_login ~/.profile; do
    [ -r "$__t4a_f" ] && { . "$__t4a_f"; break; }
  done
elif [ -z "$T4A_NORC" ]; then
  [ -r /etc/bash.bashrc ] && . /etc/bash.bashrc
  [ -r ~/.bashrc ] && . ~/.bashrc
fi
unset T4A_LOGIN T4A_NORC __t4a_f

__t4a_nonce=$T4A_NONCE
unset T4A_NONCE
__t4a_prompted=

__t4a_precmd() {
  local code=$?
  # No D before the first prompt: nothing ran yet. The daemon ignores a D without a C (empty line).
  if [ -n "$__t4a_prompted" ]; then
    printf '\033]133;D;%s;t4a=%s\007\033]7777;done;%s;t4a=%s\007' "$code" "$__t4a_nonce" "$code" "$__t4a_nonce"
  fi
  __t4a_prompted=1
  # OSC 7: where the shell is, so a restored session starts there again.
  printf '\033]7;file://%s%s\007' "${HOSTNAME:-}" "$PWD"
  return $code
}

# Re-wrapped every prompt: themes that rebuild PS1 in PROMPT_COMMAND would drop the marks. PS2
# (more of the line wanted) is marked too: a typed command that is incomplete is cancelled, not waited on.
__t4a_prompt() {
  case "$PS1" in
    *"133;A;t4a="*) ;;
    *) PS1='\[\033]133;A;t4a='"$__t4a_nonce"'\007\]'"$PS1"'\[\033]133;B;t4a='"$__t4a_nonce"'\007\]' ;;
  esac
  case "$PS2" in
    *"7777;more;t4a="*) ;;
    *) PS2='\[\033]7777;more;t4a='"$__t4a_nonce"'\007\]'"$PS2" ;;
  esac
}

# PS0 is printed after a command line is read, before it runs (never for an empty line).
PS0='\[\033]133;C;t4a='"$__t4a_nonce"'\007\]'"$PS0"
PROMPT_COMMAND=(__t4a_precmd "${PROMPT_COMMAND[@]}" __t4a_prompt)
