#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Add the SPDX license line to every source file that lacks it (idempotent):
#   sh scripts/spdx.sh            fix in place
#   sh scripts/spdx.sh --check    list the files without it, exit 1 if any
# Source files: C and headers, shell scripts, automake/autoconf fragments,
# X-macro tables and the man page under src/, tests/, scripts/, man/, .ci/
# and the top level. Data (fixtures, goldens, profiles, themes) is left alone.
set -u
cd "$(dirname "$0")/.." || exit 2
tag="SPDX-License-Identifier: GPL-2.0-or-later"
check=0
[ "${1:-}" = --check ] && check=1
missing=0
files() {
	find src tests scripts man .ci -type f \( -name '*.c' -o -name '*.h' -o -name '*.sh' -o -name '*.mk' \
		-o -name '*.def' -o -name '*.8' -o -name '*.dtsi' -o -name run \) \
		-not -path 'tests/fixtures/*' -not -path 'tests/fuzz/out/*' -not -path 'tests/fuzz/seeds/*' 2>/dev/null
	for f in configure.ac Makefile.am bootstrap; do [ -f "$f" ] && echo "$f"; done
}
for f in $(files); do
	head -n 3 "$f" | grep -q "$tag" && continue
	missing=$((missing + 1))
	if [ $check = 1 ]; then
		echo "$f"
		continue
	fi
	case $f in
	*.c | *.h | *.def | *.dtsi) line="/* $tag */" ;;
	*.8) line=".\\\" $tag" ;;
	*) line="# $tag" ;;
	esac
	if head -n 1 "$f" | grep -q '^#!'; then
		{ head -n 1 "$f"; echo "$line"; tail -n +2 "$f"; } >"$f.spdx"
	else
		{ echo "$line"; cat "$f"; } >"$f.spdx"
	fi
	chmod --reference="$f" "$f.spdx" && mv "$f.spdx" "$f"
done
[ $check = 1 ] && [ $missing -gt 0 ] && exit 1
exit 0
