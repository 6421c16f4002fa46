// SPDX-License-Identifier: MIT
/*
 * nfsrdma promises no shell: fails when any source under deploy/, or under
 * common/ which it links, calls system() or popen(), names a shell binary,
 * or passes "-c" to an exec.
 */
#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const patterns[] = {
	"(^|[^_a-zA-Z0-9])system[ \t]*\\(",
	"(^|[^_a-zA-Z0-9])popen[ \t]*\\(",
	"\"(/usr)?/bin/(ba|da|z|k|c)?sh\"",
	"\"(ba|da|z|k|c)?sh\"",
	"\"-c\"",
	"(^|[^_a-zA-Z0-9])execl[pe]?[ \t]*\\(",
};

static int scan(const char *path, regex_t *re, size_t nre)
{
	char line[4096];
	int lineno = 0, bad = 0;
	FILE *f = fopen(path, "r");
	size_t i;

	if (!f) {
		perror(path);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		for (i = 0; i < nre; i++)
			if (!regexec(&re[i], line, 0, NULL, 0)) {
				printf("# %s:%d: %s", path, lineno, line);
				bad = 1;
			}
	}
	fclose(f);
	return bad;
}

/* Scans every .c and .h in dir and prints one TAP line for it. */
static int scan_dir(const char *dir, const char *name, regex_t *re, size_t nre)
{
	int bad = 0, files = 0;
	struct dirent *de;
	char path[4096];
	DIR *d;

	d = opendir(dir);
	if (!d) {
		printf("not ok - %s sources not found at %s\n", name, dir);
		return 1;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 3 || (strcmp(de->d_name + n - 2, ".c") &&
			      strcmp(de->d_name + n - 2, ".h")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		bad |= scan(path, re, nre);
		files++;
	}
	closedir(d);
	printf("%s - %s has no system(), popen() or shell exec (%d files)\n",
	       bad || !files ? "not ok" : "ok", name, files);
	return bad || !files;
}

int main(void)
{
	size_t nre = sizeof(patterns) / sizeof(patterns[0]), i;
	regex_t re[sizeof(patterns) / sizeof(patterns[0])];
	int bad;

	for (i = 0; i < nre; i++)
		if (regcomp(&re[i], patterns[i], REG_EXTENDED | REG_NOSUB)) {
			printf("not ok - bad pattern %s\n", patterns[i]);
			return 1;
		}
	bad = scan_dir(NR_DEPLOY_DIR, "deploy/", re, nre);
	bad |= scan_dir(NR_COMMON_DIR, "common/", re, nre);
	for (i = 0; i < nre; i++)
		regfree(&re[i]);
	return bad;
}
