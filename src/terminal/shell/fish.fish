# t4a shell integration for fish, run with --init-command after the user's config: OSC 133 marks
# and the seed's OSC 7777;done;code, carrying this session's nonce.
set -g __t4a_nonce $T4A_NONCE
set -e T4A_NONCE

function __t4a_prompt --on-event fish_prompt
    set -l code $status
    # A line read but not run (a syntax error): a done mark without a start, which the daemon
    # counts only for a line it typed. None before the first prompt.
    if set -q __t4a_prompted; and not set -q __t4a_ran
        printf '\e]133;D;%s;t4a=%s\a' $code $__t4a_nonce
    end
    set -e __t4a_ran
    set -g __t4a_prompted 1
    printf '\e]7;file://%s%s\a' (hostname) $PWD
    printf '\e]133;A;t4a=%s\a' $__t4a_nonce
end

function __t4a_preexec --on-event fish_preexec
    set -g __t4a_running 1
    printf '\e]133;C;t4a=%s\a' $__t4a_nonce
end

function __t4a_postexec --on-event fish_postexec
    set -l code $status
    if set -q __t4a_running
        printf '\e]133;D;%s;t4a=%s\a\e]7777;done;%s;t4a=%s\a' $code $__t4a_nonce $code $__t4a_nonce
        set -e __t4a_running
        set -g __t4a_ran 1
    end
end
