#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Counters in the outputs (issue 19 item 4): libpfm4's status says "not
# built in", "failed to load (why)" or its real version; --csv --counters
# carries a column per event.
. "$TT_SRCDIR/tests/lib.sh"

v=$("$TUNETOP" --version 2>&1)
ok $? "--version exits 0"
like "$v" '^tunetop [0-9]' "--version names tunetop"
like "$v" 'libpfm4: ' "--version says where libpfm4 stands"
like "$v" 'libsensors: ' "--version says where libsensors stands"
if grep -q '^#define HAVE_LIBPFM 1' "$TT_BUILDDIR/config.h" 2>/dev/null; then
	lib=$(ldconfig -p 2>/dev/null | sed -n 's/.*libpfm\.so\.4 .*=> \(.*\)/\1/p' | head -1)
	if [ -n "$lib" ]; then
		real=$(readlink -f "$lib")
		ver=${real##*.so.}
		like "$v" "libpfm4: $ver \\($real\\)" "the real version from the library loaded ($ver), not 4.0"
	else
		skip "libpfm4's version" "libpfm.so.4 is not installed"
	fi
	# a libpfm.so.4 that cannot be loaded: "failed to load" and why
	mkdir -p "$TMPD/badlib"
	: >"$TMPD/badlib/libpfm.so.4"
	v=$(LD_LIBRARY_PATH="$TMPD/badlib" "$TUNETOP" --version 2>&1)
	like "$v" "libpfm4: failed to load: cannot load libpfm.so.4: .*badlib/libpfm.so.4" \
		"an unloadable libpfm.so.4: failed to load, and why"
	unlike "$v" "not built in" "an unloadable library is not called 'not built in'"
	e=$(LD_LIBRARY_PATH="$TMPD/badlib" "$TUNETOP" events 2>&1)
	like "$e" "libpfm4: failed to load" "events says the same"
	e=$(LD_LIBRARY_PATH="$TMPD/badlib" "$TUNETOP" events --list 2>&1)
	ok $((! $?)) "events --list fails without a usable libpfm4"
	like "$e" "libpfm4 failed to load" "events --list names the load failure"
else
	like "$v" 'libpfm4: not built in' "built without libpfm4: not built in"
	like "$("$TUNETOP" events 2>&1)" 'libpfm4: not built in' "events: not built in"
fi

# --csv --counters: the software counters exist on any Linux
out=$("$TUNETOP" snapshot --csv --counters --interval 300 2>"$TMPD/err")
ok $? "snapshot --csv --counters"
hdr=$(printf '%s\n' "$out" | head -1)
like "$hdr" ',context-switches_per_s,' "the header has a column per event"
like "$hdr" ',ipc,miss_rate_pct$' "and ipc, miss_rate_pct at the end"
cols=$(printf '%s\n' "$hdr" | awk -F, '{ print NF }')
bad=$(printf '%s\n' "$out" | sed 1d | awk -F, -v n="$cols" 'NF != n' | wc -l)
is "$bad" 0 "every row has the header's $cols columns"
ci=$(printf '%s\n' "$hdr" | tr ',' '\n' | grep -n '^context-switches_per_s$' | cut -d: -f1)
vals=$(printf '%s\n' "$out" | sed 1d | cut -d, -f"$ci" | grep -c '^[0-9][0-9.]*$')
is "$vals" "$(printf '%s\n' "$out" | sed 1d | grep -c ',1,')" "each online CPU has a context-switch rate"
out=$("$TUNETOP" snapshot --csv --interval 0 2>&1)
unlike "$(printf '%s\n' "$out" | head -1)" '_per_s' "without --counters: no counter columns"
done_testing
