# bash completion for charter
# Install: add this line to ~/.bashrc
#   source <(charter completion bash)
# or save the script: charter completion bash > ~/.local/share/bash-completion/completions/charter

_charter() {
    local cur=${COMP_WORDS[COMP_CWORD]}
    # Read the line up to the cursor ourselves: bash splits --flag=value at
    # "=", charter wants the words as typed.
    local line=${COMP_LINE:0:COMP_POINT}
    local -a words
    read -r -a words <<<"$line"
    [[ $line == *[[:space:]] || ${#words[@]} -eq 0 ]] && words+=("")
    local word=${words[${#words[@]}-1]}

    local out
    out=$(charter __complete -- "${words[@]:1}" 2>/dev/null) || return 0

    # A candidate replaces only what bash counts as the current word: drop
    # the part before it (up to and including the "=" of --flag=).
    local pre=${word%"$cur"}
    local -a reply=()
    local cand paths=
    while IFS= read -r cand; do
        case $cand in
        :files) paths=files ;;
        :dirs) paths=dirs ;;
        '') ;;
        *)
            cand=${cand%%$'\t'*}
            reply+=("${cand#"$pre"}")
            ;;
        esac
    done <<<"$out"

    if [[ $paths == dirs ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t reply < <(compgen -d -- "$cur")
    elif [[ $paths == files ]]; then
        compopt -o filenames 2>/dev/null
        mapfile -t reply < <(compgen -f -- "$cur")
    fi
    COMPREPLY=("${reply[@]}")
    return 0
}

complete -F _charter charter
