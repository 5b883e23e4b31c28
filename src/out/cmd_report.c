/* stub */
#include <stdio.h>

#include "cmd.h"

int cmd_report(const struct tt_opts *o, int argc, char **argv)
{
	(void)o;
	(void)argc;
	(void)argv;
	fprintf(stderr, "tunetop report: not implemented yet\n");
	return 1;
}
