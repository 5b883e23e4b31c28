/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `tunetop --complete bash|zsh` (cmd.h, cmd_complete): the words the shell
 * completion scripts complete, printed as a fragment of the shell's own
 * syntax from the command table (names, one-line summaries, options) and
 * the knob family registry (knob.h). The build puts the fragment into
 * contrib/completion/{tunetop.bash,_tunetop}.in at their "@GENERATED@"
 * line (Makefile.am); a cross build, which cannot run tunetop, leaves an
 * eval of `tunetop --complete` there instead. Nothing in the scripts lists
 * a command, an option or a family by hand. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "knob/knob.h"

/* The words of one option line's name: "-i, --interval MS" gives "-i" and
 * "--interval", "--threads[=all]" gives "--threads" and "--threads=all". */
static void opt_words(const char *name, FILE *f)
{
	const char *p = name;

	while (*p) {
		size_t n;

		p += strspn(p, ", ");
		if (*p != '-')
			break;
		n = strcspn(p, ", [");
		fprintf(f, " %.*s", (int)n, p);
		if (p[n] == '[') { /* --threads[=all] */
			size_t m = strcspn(p + n + 1, "]");

			fprintf(f, " %.*s%.*s", (int)n, p, (int)m, p + n + 1);
			n += m + 2;
		}
		p += n;
		p += strcspn(p, ","); /* the argument ("MS") */
	}
}

/* Every option word of c, space-separated, with a leading space each; "--"
 * when the synopsis takes a command line after it (exec). */
static void cmd_words(const struct cmd_entry *c, FILE *f)
{
	for (const struct cmd_opt *op = c->opts; op->name; op++)
		opt_words(op->name, f);
	if (strstr(c->synopsis, " -- "))
		fputs(" --", f);
}

static void families(const char *lead, const char *sep, FILE *f)
{
	for (size_t i = 0; i < knob_family_count(); i++)
		fprintf(f, "%s%s/", i ? sep : lead, knob_family_name(i));
}

static void bash_words(FILE *f)
{
	fputs("_tunetop_commands=\"", f);
	for (size_t i = 0; i < cmd_count; i++)
		fprintf(f, "%s%s", i ? " " : "", cmd_table[i].name);
	fputs("\"\n# the knob families (src/knob/registry.c), as address prefixes\n", f);
	families("_tunetop_families=\"", " ", f);
	fputs("\"\n# _tunetop_cmd_opts CMD: the options of one command\n"
	      "_tunetop_cmd_opts() {\n\tcase $1 in\n",
	      f);
	for (size_t i = 0; i < cmd_count; i++) {
		fprintf(f, "\t%s) echo \"", cmd_table[i].name);
		cmd_words(&cmd_table[i], f);
		fputs("\" ;;\n", f);
	}
	fputs("\tesac\n}\n", f);
}

static void zsh_words(FILE *f)
{
	fputs("_tunetop_commands=(\n", f);
	for (size_t i = 0; i < cmd_count; i++)
		fprintf(f, "  '%s:%s'\n", cmd_table[i].name, cmd_table[i].brief);
	fputs(")\n# the knob families (src/knob/registry.c), as address prefixes\n", f);
	families("_tunetop_families=(", " ", f);
	fputs(")\n# _tunetop_cmd_opts CMD: the options of one command, in cmd_opts\n"
	      "_tunetop_cmd_opts() {\n  case $1 in\n",
	      f);
	for (size_t i = 0; i < cmd_count; i++) {
		fprintf(f, "    %s) cmd_opts=(", cmd_table[i].name);
		cmd_words(&cmd_table[i], f);
		fputs(") ;;\n", f);
	}
	fputs("  esac\n}\n", f);
}

int cmd_complete(const char *shell, FILE *f)
{
	if (shell && !strcmp(shell, "bash"))
		bash_words(f);
	else if (shell && !strcmp(shell, "zsh"))
		zsh_words(f);
	else {
		fprintf(stderr, "tunetop: --complete bash|zsh, not '%s'\n", shell ? shell : "");
		return 2;
	}
	return fflush(f) == 0 ? 0 : 1;
}
