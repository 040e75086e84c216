# t4a shell integration for zsh (interactive stage): the user's .zshrc, then OSC 133 marks and the
# seed's OSC 7777;done;code, carrying this session's nonce. ZDOTDIR stays the user's from here on.
ZDOTDIR=$T4A_USER_ZDOTDIR
[[ -r $ZDOTDIR/.zshrc ]] && source $ZDOTDIR/.zshrc
[[ $ZDOTDIR == $HOME ]] && unset ZDOTDIR
unset T4A_USER_ZDOTDIR __t4a_zdotdir

# zsh marks a last line without a newline with PROMPT_EOL_MARK ("%" or "#") before precmd runs,
# which would end up inside the command's captured output.
PROMPT_EOL_MARK=''

typeset -g __t4a_nonce=$T4A_NONCE __t4a_running= __t4a_prompted=
unset T4A_NONCE

__t4a_precmd() {
  local code=$?
  # A done mark after every line read, run or not (a parse error runs nothing, as bash does): the
  # daemon ignores one without a start unless it typed that line. None before the first prompt.
  if [[ -n $__t4a_running || -n $__t4a_prompted ]]; then
    printf '\033]133;D;%s;t4a=%s\007\033]7777;done;%s;t4a=%s\007' $code $__t4a_nonce $code $__t4a_nonce
    __t4a_running=
  fi
  __t4a_prompted=1
  printf '\033]7;file://%s%s\007' "$HOST" "$PWD"
  printf '\033]133;A;t4a=%s\007' $__t4a_nonce
  [[ $PS1 == *"133;B;t4a="* ]] || PS1="$PS1%{"$'\033'"]133;B;t4a=$__t4a_nonce"$'\007'"%}"
  # The continuation prompt (more of the line wanted): a typed command that is incomplete is cancelled.
  [[ $PS2 == *"7777;more;t4a="* ]] || PS2="%{"$'\033'"]7777;more;t4a=$__t4a_nonce"$'\007'"%}$PS2"
}

__t4a_preexec() {
  __t4a_running=1
  printf '\033]133;C;t4a=%s\007' $__t4a_nonce
}

# First in line, so $? is still the command's status.
precmd_functions=(__t4a_precmd $precmd_functions)
preexec_functions+=(__t4a_preexec)
