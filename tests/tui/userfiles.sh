#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI does not hang on odd files it opens by name (issue 13): a FIFO
# named journal in the state dir makes it read-only and say why; a FIFO as
# tunetoprc or as the theme file is reported ("FILE: not a regular file")
# and the defaults are used. Each start must reach the first screen.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

command -v mkfifo >/dev/null 2>&1 || skip_all "mkfifo not installed"
root=$(copy_fixture rk3588)

# a FIFO named journal
st="$TMPD/st"
mkdir -m 700 "$st"
mkfifo "$st/journal"
tui_start j 140 40 -- --root "$root" --state-dir "$st"
tui_wait j 'policy0 +4x A55 +gov interactive' 15; ok $? "started with a FIFO named journal"
tui_wait j "READ-ONLY: $st/journal: not a regular file"; ok $? "read-only, and says why"
tui_keys j q
tui_wait_exit j; ok $? "quits"

# a FIFO as tunetoprc
mkdir -p "$TMPD/cfg/tunetop"
mkfifo "$TMPD/cfg/tunetop/tunetoprc"
tui_start c 140 40 XDG_CONFIG_HOME="$TMPD/cfg" -- --root "$root" --state-dir "$TMPD/st2"
tui_wait c 'policy0 +4x A55 +gov interactive' 15; ok $? "started with a FIFO as tunetoprc"
tui_wait c "tunetoprc: not a regular file"; ok $? "says so"
tui_keys c q
tui_wait_exit c; ok $? "quits"

# a FIFO as the theme
mkdir -p "$TMPD/themes"
mkfifo "$TMPD/themes/odd.theme"
tui_start t 140 40 TUNETOP_THEMES_DIR="$TMPD/themes" -- --root "$root" --state-dir "$TMPD/st3" --theme odd
tui_wait t 'policy0 +4x A55 +gov interactive' 15; ok $? "started with a FIFO as the theme"
tui_wait t "odd.theme: not a regular file"; ok $? "says so"
tui_keys t q
tui_wait_exit t; ok $? "quits"
done_testing
