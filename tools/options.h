/* SPDX-License-Identifier: MIT */
/*
 * rdmaio's option machinery: each subcommand has a table of the options it
 * takes; getopt_long's tables are made from it, and an option it does not
 * take is refused, naming the subcommands that do. It knows the options by
 * their tables only: what one sets is the caller's take function
 * (rio_args_set_option(), args.h).
 */
#ifndef RDMAIO_TOOLS_OPTIONS_H
#define RDMAIO_TOOLS_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

/* The values of options without a letter start past every letter. */
#define OPT_LONG 256

/* An option: its long name, its letter or OPT_ value, its argument. */
struct rio_opt {
	const char *name; /* without "--" */
	int val; /* its letter when it has a short form, else an OPT_ value */
	const char *arg; /* its argument as messages name it; NULL: none */
};

/* Options that go together; a subcommand takes one set or a few. */
struct rio_opt_set {
	const char *group; /* plural, what messages call them; NULL: none */
	const struct rio_opt *opts; /* ends with a NULL name */
};

#define NOTES_MAX 3
#define SETS_MAX 3

struct rio_args;

struct rio_subcmd {
	const char *name;
	int (*fn)(struct rio_args *a);
	struct rio_opt_set sets[SETS_MAX]; /* { NULL, NULL } after the last */
	const char *synopsis;
	const char *notes[NOTES_MAX]; /* NULL after the last */
};

/*
 * SUBS is every subcommand, ending with a NULL name: the whole usage lists
 * them all, and a refusal names the others that take an option.
 */
void rio_opt_usage(const struct rio_subcmd *subs, FILE *f);

/* The subcommand NAME, or NULL after saying which there are. */
const struct rio_subcmd *rio_opt_subcmd(const struct rio_subcmd *subs,
					const char *name);

/* What take gets for an argument that is no option: a file. */
#define RIO_OPT_FILE 1

/*
 * What the command line sets, kept by the caller in A: option C (its letter
 * or OPT_ value) with its argument ARG, or a file when C is RIO_OPT_FILE.
 * 0, or an error after saying it.
 */
typedef int (*rio_opt_take_fn)(struct rio_args *a, int c, char *arg);

/* SUB's command line (ARGV[0] is SUB's name) into A through take. False
 * when rdmaio is to exit with *status instead: --help, a usage error. */
bool rio_opt_parse(const struct rio_subcmd *subs, const struct rio_subcmd *sub,
		   int argc, char **argv, rio_opt_take_fn take,
		   struct rio_args *a, int *status);

#endif
