// SPDX-License-Identifier: MIT
/*
 * nfsrdma promises no shell: fails when any source under deploy/ calls
 * system() or popen(), names a shell binary, or passes "-c" to an exec.
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

int main(void)
{
	size_t nre = sizeof(patterns) / sizeof(patterns[0]), i;
	regex_t re[sizeof(patterns) / sizeof(patterns[0])];
	int bad = 0, files = 0;
	struct dirent *de;
	char path[4096];
	DIR *d;

	for (i = 0; i < nre; i++)
		if (regcomp(&re[i], patterns[i], REG_EXTENDED | REG_NOSUB)) {
			printf("not ok - bad pattern %s\n", patterns[i]);
			return 1;
		}
	d = opendir(NR_DEPLOY_DIR);
	if (!d) {
		printf("not ok - deploy sources not found at %s\n",
		       NR_DEPLOY_DIR);
		return 1;
	}
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n < 3 || (strcmp(de->d_name + n - 2, ".c") &&
			      strcmp(de->d_name + n - 2, ".h")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", NR_DEPLOY_DIR,
			 de->d_name);
		bad |= scan(path, re, nre);
		files++;
	}
	closedir(d);
	for (i = 0; i < nre; i++)
		regfree(&re[i]);
	printf("%s - deploy/ has no system(), popen() or shell exec (%d "
	       "files)\n",
	       bad || !files ? "not ok" : "ok", files);
	return bad || !files;
}
