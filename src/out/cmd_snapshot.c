/* snapshot / watch / capture commands (batch front end over the model). */
#include <stdio.h>

#include "cmd.h"

int cmd_snapshot(const struct tt_opts *o, int argc, char **argv)
{
	(void)o;
	(void)argc;
	(void)argv;
	fprintf(stderr, "tunetop: snapshot: not implemented yet\n");
	return 1;
}

int cmd_watch(const struct tt_opts *o, int argc, char **argv)
{
	return cmd_snapshot(o, argc, argv);
}

int cmd_capture(const struct tt_opts *o, int argc, char **argv)
{
	return cmd_snapshot(o, argc, argv);
}
