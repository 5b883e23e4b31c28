/* tunetop: argument parsing and dispatch only. */


#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--version")) {
		printf("tunetop %s\n", PACKAGE_VERSION);
		return 0;
	}
	fprintf(stderr, "tunetop: not implemented yet\n");
	return 2;
}
