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

/* One shell's form of the words: a list in "..." (bash) or (...) (zsh), the
 * commands (bash: the names; zsh: 'name:brief' a line), and a function of
 * case arms giving a command's options. */
static const struct shell_form {
	const char *name;
	const char *open, *close;	  /* a list */
	const char *sep, *cmd, *cmds_end; /* the commands: fprintf(cmd, name, brief) */
	const char *opts_fn;		  /* the comment and head of _tunetop_cmd_opts */
	const char *arm, *arm_end, *esac;
} shells[] = {
	{"bash", "\"", "\"", " ", "%s%.0s", "",
	 "# _tunetop_cmd_opts CMD: the options of one command\n"
	 "_tunetop_cmd_opts() {\n\tcase $1 in\n",
	 "\t%s) echo \"", "\" ;;\n", "\tesac\n}\n"},
	{"zsh", "(", ")", "", "\n  '%s:%s'", "\n",
	 "# _tunetop_cmd_opts CMD: the options of one command, in cmd_opts\n"
	 "_tunetop_cmd_opts() {\n  case $1 in\n",
	 "    %s) cmd_opts=(", ") ;;\n", "  esac\n}\n"},
};

static void shell_words(const struct shell_form *sh, FILE *f)
{
	fprintf(f, "_tunetop_commands=%s", sh->open);
	for (size_t i = 0; i < cmd_count; i++) {
		fputs(i ? sh->sep : "", f);
		fprintf(f, sh->cmd, cmd_table[i].name, cmd_table[i].brief);
	}
	fprintf(f, "%s%s\n# the knob families (src/knob/registry.c), as address prefixes\n",
		sh->cmds_end, sh->close);
	fprintf(f, "_tunetop_families=%s", sh->open);
	for (size_t i = 0; i < knob_family_count(); i++)
		fprintf(f, "%s%s/", i ? " " : "", knob_family_name(i));
	fprintf(f, "%s\n%s", sh->close, sh->opts_fn);
	for (size_t i = 0; i < cmd_count; i++) {
		fprintf(f, sh->arm, cmd_table[i].name);
		cmd_words(&cmd_table[i], f);
		fputs(sh->arm_end, f);
	}
	fputs(sh->esac, f);
}

int cmd_complete(const char *shell, FILE *f)
{
	for (size_t i = 0; shell && i < sizeof(shells) / sizeof(shells[0]); i++)
		if (!strcmp(shell, shells[i].name)) {
			shell_words(&shells[i], f);
			return fflush(f) == 0 ? 0 : 1;
		}
	fprintf(stderr, "tunetop: --complete bash|zsh, not '%s'\n", shell ? shell : "");
	return 2;
}
