# SPDX-License-Identifier: GPL-2.0-or-later
# bash completion for tunetop(8). Installed as
# $(datadir)/bash-completion/completions/tunetop.
#
# Commands and options are listed here (tests/cli/completion.sh fails when
# `tunetop --help` or `tunetop CMD --help` names one that is missing). Profile
# names come from `tunetop apply --list`, knob addresses from `tunetop knobs`
# on the running machine (or on the --root DIR given on the command line),
# theme names from the theme directories tunetop searches.

_tunetop_commands="snapshot watch capture events explain report learn world probe ab why knobs get set apply undo restore journal exec serve"
# options with an argument, anywhere on the line
_tunetop_global_arg="--root --state-dir --clocks --self-cpus --self-nice"
_tunetop_global_opts="$_tunetop_global_arg -q --quiet -h --help -V --version"
# the interactive monitor (no command)
_tunetop_tui_opts="--demo -d --delay --theme --keep --hold --no-color --screen --record --record-format --replay"
_tunetop_screens="cores clocks rt journal setup help threads irqs isolation latency findings lessons"

# _tunetop_cmd_opts CMD: the options of one command
_tunetop_cmd_opts() {
	case $1 in
	snapshot) echo "--json --csv --interval --stable --counters --events --thread --threads --threads=all --irqs --latency-budget" ;;
	watch) echo "--json --csv -i --interval -n --count --stable --counters --events --record --record-format --openmetrics --latency-budget --metric-file --metric" ;;
	serve) echo "--listen --listen-any --min-interval --probe" ;;
	capture) echo "" ;;
	events) echo "--list" ;;
	explain) echo "--width --list --all" ;;
	report) echo "--html --quiet" ;;
	why) echo "--json --why-over --worst --housekeeping" ;;
	learn) echo "--auto --demo --record --record-format" ;;
	world) echo "--list --seed --run" ;;
	probe) echo "--cpus -i --interval -D --duration -p --prio --policy --dma-latency --json --summary --histfile --break --break-trace --rpmsg --rpmsg-size --rpmsg-interval-us --rpmsg-timeout-ms --why --why-over --events" ;;
	ab) echo "--aa --window --settle --rounds --cpus --load --cmd --metric --metric-file --json --seed -i --interval --prio --policy --primary --why --why-over" ;;
	knobs) echo "--long --json" ;;
	get) echo "" ;;
	set) echo "--dry-run --verify --no-verify" ;;
	apply) echo "--dry-run --force --verify --no-verify --list" ;;
	undo) echo "--force --dry-run -n" ;;
	restore) echo "--orphans --force --dry-run" ;;
	journal) echo "--json" ;;
	exec) echo "-p --force --cpus --fifo --rr --nice --no-follow --pidfile --hold --metric --json --dry-run -q --" ;;
	esac
}

# run tunetop with the --root / --state-dir of the line being completed
_tunetop_run() {
	local bin=${COMP_WORDS[0]:-tunetop}
	bin=${bin/#\~/$HOME}
	command -v -- "$bin" >/dev/null 2>&1 || bin=tunetop
	"$bin" "${_tunetop_globals[@]}" "$@" 2>/dev/null
}

_tunetop_profiles() {
	_tunetop_run apply --list | awk '/^[^ \t]/ { print $1 }'
}

_tunetop_themes() {
	local d dirs=()
	[ -n "${TUNETOP_THEMES_DIR:-}" ] && dirs+=("$TUNETOP_THEMES_DIR")
	dirs+=("${XDG_CONFIG_HOME:-$HOME/.config}/tunetop/themes")
	# the installed (or build tree's) themes sit next to its profiles
	while read -r d; do
		dirs+=("${d%/profiles/*}/themes")
	done < <(_tunetop_run apply --list | awk '/^[^ \t]/ && $3 ~ /\/profiles\// { print $3 }')
	dirs+=(/usr/share/tunetop/themes /usr/local/share/tunetop/themes)
	{
		echo default
		echo monochrome
		for d in "${dirs[@]}"; do
			for f in "$d"/*.theme; do
				[ -f "$f" ] || continue
				f=${f##*/}
				echo "${f%.theme}"
			done
		done
	} | sort -u
}

# _tunetop_knobs CUR SUFFIX: knob addresses, one path segment at a time
# (cpufreq/pol -> cpufreq/policy0/ ...); a whole address gets SUFFIX ("=").
# Families whose objects `tunetop knobs` does not list (thread/<tid>,
# process/<pid>) are listed for the object typed (thread/1234/); a process
# lists its threads' knobs, offered as its own leaves.
_tunetop_knobs() {
	local cur=$1 suffix=$2 a
	COMPREPLY=($({
		_tunetop_run knobs
		case $cur in */*/*)
			_tunetop_run knobs "${cur%/*}" | awk -v p="${cur%/*}/" '
				index($1, p) != 1 { n = split($1, s, "/"); $1 = p s[n] } { print }' ;;
		esac
	} |
		awk -v cur="$cur" -v sfx="$suffix" '
		$1 != "ADDRESS" && $1 ~ /\// && index($1, cur) == 1 {
			rest = substr($1, length(cur) + 1)
			i = index(rest, "/")
			if (i) print cur substr(rest, 1, i); else print $1 sfx
		}' | sort -u))
	for a in "${COMPREPLY[@]}"; do
		case $a in */ | *=) compopt -o nospace 2>/dev/null ;; esac
	done
}

# _tunetop_values ADDRESS CUR: the values `tunetop knobs` allows for ADDRESS
_tunetop_values() {
	local allowed
	allowed=$(_tunetop_run knobs | awk -v a="$1" '$1 == a { for (i = 5; i <= NF; i++) printf "%s ", $i }')
	[ "$allowed" = "any " ] && allowed=""
	COMPREPLY=($(compgen -W "$allowed" -- "$2"))
}

_tunetop() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev="" cmd="" w i
	local -a _tunetop_globals=()
	COMPREPLY=()
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}

	# the command and the global options before the word being completed
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--) [ "$cmd" = exec ] && break ;;
		--root | --state-dir)
			[ $((i + 1)) -lt "$COMP_CWORD" ] && _tunetop_globals+=("$w" "${COMP_WORDS[i + 1]}")
			i=$((i + 1)) ;;
		--root=* | --state-dir=*) _tunetop_globals+=("$w") ;;
		--clocks | --self-cpus | --self-nice) i=$((i + 1)) ;;
		-d | --delay | --theme | --screen | --record | --record-format | --replay)
			[ -z "$cmd" ] && i=$((i + 1)) ;;
		-*) ;;
		*) [ -z "$cmd" ] && case " $_tunetop_commands " in *" $w "*) cmd=$w ;; esac ;;
		esac
	done
	# exec: after "--" a command line
	if [ "$cmd" = exec ]; then
		for ((i = 1; i < COMP_CWORD; i++)); do
			if [ "${COMP_WORDS[i]}" = -- ]; then
				COMPREPLY=($(compgen -c -- "$cur"))
				return 0
			fi
		done
	fi

	# the argument of an option
	case $prev in
	--root | --state-dir)
		COMPREPLY=($(compgen -d -- "$cur")); return 0 ;;
	--record | --replay | --html | --openmetrics | --histfile | --break-trace | --pidfile | --metric-file | --events)
		COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
	--rpmsg)
		COMPREPLY=($(compgen -f -- "${cur:-/dev/ttyRPMSG}")); return 0 ;;
	--hold)
		COMPREPLY=($(compgen -W "off report reassert" -- "$cur")); return 0 ;;
	--theme)
		COMPREPLY=($(compgen -W "$(_tunetop_themes)" -- "$cur")); return 0 ;;
	--screen)
		COMPREPLY=($(compgen -W "$_tunetop_screens" -- "$cur")); return 0 ;;
	--record-format)
		COMPREPLY=($(compgen -W "auto json zstd" -- "$cur")); return 0 ;;
	--policy)
		COMPREPLY=($(compgen -W "fifo rr other" -- "$cur")); return 0 ;;
	-p)
		if [ "$cmd" = exec ]; then
			COMPREPLY=($(compgen -W "$(_tunetop_profiles)" -- "$cur")); return 0
		fi
		return 0 ;;
	--clocks | --self-cpus | --self-nice | -d | --delay | -i | --interval | -n | --count | \
		--events | --thread | --latency-budget | --width | --cpus | -D | --duration | --prio | \
		--dma-latency | --window | --settle | --rounds | --load | --cmd | --metric | --seed | \
		--verify | --fifo | --rr | --nice)
		return 0 ;;
	esac

	# ADDRESS=VALUE: bash splits the word at "=" (COMP_WORDBREAKS) or not
	case $cmd in set | ab | exec)
		if [ "$cur" = "=" ] && [[ $prev == */* ]]; then
			_tunetop_values "$prev" ""
			return 0
		elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then
			_tunetop_values "${COMP_WORDS[COMP_CWORD - 2]}" "$cur"
			return 0
		elif [[ $cur == */*=* ]]; then
			_tunetop_values "${cur%%=*}" "${cur#*=}"
			COMPREPLY=("${COMPREPLY[@]/#/${cur%%=*}=}")
			return 0
		fi ;;
	esac

	if [[ $cur == -* ]]; then
		if [ -z "$cmd" ]; then
			COMPREPLY=($(compgen -W "$_tunetop_global_opts $_tunetop_tui_opts" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_tunetop_cmd_opts "$cmd") $_tunetop_global_opts" -- "$cur"))
		fi
		return 0
	fi

	case $cmd in
	"") COMPREPLY=($(compgen -W "$_tunetop_commands" -- "$cur")) ;;
	apply) COMPREPLY=($(compgen -W "$(_tunetop_profiles)" -- "$cur")) ;;
	set | ab | exec) _tunetop_knobs "$cur" "=" ;;
	get | knobs | explain) _tunetop_knobs "$cur" "" ;;
	capture) COMPREPLY=($(compgen -d -- "$cur")) ;;
	report | why) COMPREPLY=($(compgen -f -- "$cur")) ;;
	learn) COMPREPLY=($(compgen -W "1 2 3 4 5" -- "$cur")) ;;
	esac
	return 0
}
complete -F _tunetop tunetop
