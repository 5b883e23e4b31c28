#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Clocks screen's debugfs clocks come from tunetoprc clocks= (issue 2),
# --clocks wins over it, and a bad clocks= is reported (not fatal) and the
# default list is used. Copied RK3588 fixture with sys/kernel/debug/clk.
. "$TT_SRCDIR/tests/lib.sh"
. "$TT_SRCDIR/tests/tui/tmux.sh"

root=$(copy_fixture rk3588)
cfg() { # write tunetoprc
	mkdir -p "$XDG_CONFIG_HOME/tunetop"
	printf 'config_version=1\n%s\n' "$1" >"$XDG_CONFIG_HOME/tunetop/tunetoprc"
}

# default list
cfg ''
tui_start d 120 40 -- --root "$root" --state-dir "$TMPD/st" --screen clocks
tui_wait d '^ +scmi_clk_npu +npu'; ok $? "default: scmi_clk_npu listed"
tui_wait d '^ +scmi_clk_ddr +ddr'; ok $? "default: scmi_clk_ddr listed"
tui_screen d | grep -q scmi_clk_cpul
ok $((!$?)) "default: scmi_clk_cpul not listed"
tui_keys d q
tui_wait_exit d

# tunetoprc clocks=
cfg 'clocks=scmi_clk_cpul,scmi_clk_dsu'
tui_start c 120 40 -- --root "$root" --state-dir "$TMPD/st" --screen clocks
tui_wait c '^ +scmi_clk_cpul +other +[0-9]+'; ok $? "clocks=: scmi_clk_cpul listed with its rate"
tui_wait c '^ +scmi_clk_dsu +other'; ok $? "clocks=: scmi_clk_dsu listed"
tui_screen c | grep -q 'scmi_clk_npu'
ok $((!$?)) "clocks=: the default scmi_clk_npu is not listed"
tui_keys c q
tui_wait_exit c

# --clocks wins over tunetoprc
tui_start o 120 40 -- --root "$root" --state-dir "$TMPD/st" --clocks scmi_clk_cpub23 --screen clocks
tui_wait o '^ +scmi_clk_cpub23 +other'; ok $? "--clocks: scmi_clk_cpub23 listed"
tui_screen o | grep -q 'scmi_clk_cpul'
ok $((!$?)) "--clocks: tunetoprc's scmi_clk_cpul is not listed"
tui_keys o q
tui_wait_exit o

# a bad clocks= is reported, not fatal, and the default list is used
cfg 'clocks=scmi_clk_npu,,x/y'
tui_start b 120 40 -- --root "$root" --state-dir "$TMPD/st" --screen clocks
tui_wait b 'line 2: clocks: empty clock name'; ok $? "bad clocks= is reported"
tui_wait b '^ +scmi_clk_npu +npu'; ok $? "bad clocks=: the default list is used"
tui_keys b q
tui_wait_exit b; ok $? "quits"
is "$(tui_status b)" 0 "exit status 0"

done_testing
