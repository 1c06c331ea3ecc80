#compdef charter
# zsh completion for charter
# Install: add this line to ~/.zshrc (after compinit)
#   source <(charter completion zsh)
# or save the script as _charter in a directory of $fpath:
#   charter completion zsh > "${fpath[1]}/_charter"

_charter() {
    local -a lines cands
    local line paths=
    lines=("${(@f)$(charter __complete -- "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    for line in "${lines[@]}"; do
        case $line in
        :files) paths=files ;;
        :dirs) paths=dirs ;;
        '') ;;
        *)
            local value=${line%%$'\t'*} desc=
            [[ $line == *$'\t'* ]] && desc=${line#*$'\t'}
            value=${value//:/\\:}
            if [[ -n $desc ]]; then cands+=("$value:$desc"); else cands+=("$value"); fi
            ;;
        esac
    done
    if [[ $paths == dirs ]]; then
        _files -/
    elif [[ $paths == files ]]; then
        _files
    elif (( ${#cands} )); then
        _describe -t charter 'charter' cands
    fi
}

if [[ ${funcstack[1]} == _charter ]]; then
    _charter "$@"
else
    compdef _charter charter
fi
