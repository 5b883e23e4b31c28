/* stub */
#include <stdio.h>

#include "cmd.h"

int cmd_learn(const struct tt_opts *o, int argc, char **argv)
{
	(void)o;
	(void)argc;
	(void)argv;
	fprintf(stderr, "tunetop learn: not implemented yet\n");
	return 1;
}
