package main

import (
	"fmt"

	"github.com/urfave/cli/v2"
)

// bashCompletion is urfave/cli's bash_autocomplete script for fencer: bash
// asks "fencer ... --generate-bash-completion" for the words that may come
// next (commands, or a command's flags after a "-").
const bashCompletion = `# bash completion for fencer: source <(fencer completion bash)
_fencer_bash_autocomplete() {
  if [[ "${COMP_WORDS[0]}" != "source" ]]; then
    local cur opts base words
    COMPREPLY=()
    cur="${COMP_WORDS[COMP_CWORD]}"
    if declare -F _init_completion >/dev/null 2>&1; then
      _init_completion -n "=:" || return
    else
      COMPREPLY=()
      _get_comp_words_by_ref -n "=:" cur prev words cword
    fi
    words=("${words[@]:0:$cword}")
    if [[ "$cur" == "-"* ]]; then
      requestComp="${words[*]} ${cur} --generate-bash-completion"
    else
      requestComp="${words[*]} --generate-bash-completion"
    fi
    opts=$(eval "${requestComp}" 2>/dev/null)
    COMPREPLY=($(compgen -W "${opts}" -- ${cur}))
    return 0
  fi
}
complete -o bashdefault -o default -o nospace -F _fencer_bash_autocomplete fencer
`

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script (bash or fish)",
		ArgsUsage: "bash|fish",
		Description: "Prints the script that makes the shell complete fencer's commands and flags. For bash,\n" +
			"load it in ~/.bashrc; for fish, save it among the completions.",
		Action: func(c *cli.Context) error {
			if c.NArg() != 1 {
				return fail(exitInput, "completion: want one shell, bash or fish (see fencer completion --help)")
			}
			switch c.Args().First() {
			case "bash":
				fmt.Fprint(c.App.Writer, bashCompletion)
				return nil
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return fail(exitUnknown, "completion: %v", err)
				}
				fmt.Fprint(c.App.Writer, s)
				return nil
			}
			return fail(exitInput, "completion: unknown shell %q (want bash or fish)", c.Args().First())
		},
	}
}
