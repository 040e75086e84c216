# t4a shell integration for zsh (login stage): the user's .zprofile, then back to t4a's ZDOTDIR.
ZDOTDIR=$T4A_USER_ZDOTDIR
[[ -r $ZDOTDIR/.zprofile ]] && source $ZDOTDIR/.zprofile
T4A_USER_ZDOTDIR=$ZDOTDIR
ZDOTDIR=$__t4a_zdotdir
