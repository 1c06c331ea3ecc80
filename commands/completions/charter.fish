# fish completion for charter
# Install: charter completion fish > ~/.config/fish/completions/charter.fish

function __charter_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l paths
    for line in (charter __complete -- $tokens[2..-1] "$current" 2>/dev/null)
        switch $line
            case :files
                set paths files
            case :dirs
                set paths dirs
            case '*'
                echo $line
        end
    end
    if test "$paths" = dirs
        __fish_complete_directories "$current"
    else if test "$paths" = files
        __fish_complete_path "$current"
    end
end

complete -c charter -f -a '(__charter_complete)'
