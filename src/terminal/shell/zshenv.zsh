# t4a shell integration for zsh: t4a points ZDOTDIR here; each stage runs the user's own file
# from their real ZDOTDIR (or $HOME) and then hands back to t4a's next stage.
__t4a_zdotdir=$ZDOTDIR
ZDOTDIR=${T4A_USER_ZDOTDIR:-$HOME}
[[ -r $ZDOTDIR/.zshenv ]] && source $ZDOTDIR/.zshenv
T4A_USER_ZDOTDIR=$ZDOTDIR
ZDOTDIR=$__t4a_zdotdir
