// SPDX-License-Identifier: MIT
#include <errno.h>
#include <json-c/json.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/jsonread.h"
#include "result/outfile.h"
#include "rc_file.h"
#include "rc_log.h"

static int folder_ok(const char *path)
{
	char *copy = strdup(path);
	const char *dir;
	struct stat st;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	dir = dirname(copy);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		rc_err("output %s: folder %s does not exist (create it or pass another -o)",
		       path, dir);
		ret = -ENOENT;
	} else if (access(dir, W_OK)) {
		rc_err("output %s: folder %s is not writable by this user (pass another -o)",
		       path, dir);
		ret = -EACCES;
	}
	free(copy);
	return ret;
}

/* 1 when the file at path is a JSON document whose schema begins with
 * schema; what it is otherwise goes to *what. */
static int same_kind(const char *path, const char *schema, const char **what)
{
	json_object *doc = NULL;
	const char *s;
	char *text;
	size_t len;
	int ret;

	*what = "is not JSON";
	if (rc_file_read(path, &text, &len, RIO_JSON_MAX_BYTES))
		return 0;
	doc = json_tokener_parse(text);
	free(text);
	if (!doc)
		return 0;
	s = rio_json_str(doc, "schema");
	ret = s && !strncmp(s, schema, strlen(schema));
	*what = s ? "is a JSON document of another kind"
		  : "is a JSON document that is not rdmaio's";
	json_object_put(doc);
	return ret;
}

static int is_job_file(const struct stat *st, char *const jobs[], int njobs)
{
	struct stat js;
	int i;

	for (i = 0; i < njobs; i++)
		if (!stat(jobs[i], &js) && js.st_dev == st->st_dev &&
		    js.st_ino == st->st_ino)
			return 1;
	return 0;
}

int rio_outfile_check(const char *path, const char *schema, const char *kind,
		      bool force, char *const jobs[], int njobs)
{
	struct stat st, target;
	const char *what;
	int ret = folder_ok(path);

	if (ret || lstat(path, &st))
		return ret;
	if (S_ISDIR(st.st_mode)) {
		rc_err("output %s: is a folder (pass a file name ending in .json)",
		       path);
		return -EISDIR;
	}
	if (!S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
		rc_err("output %s: exists and is not a regular file (a device, pipe or socket): rdmaio writes only files (pass another -o)",
		       path);
		return -EEXIST;
	}
	if (!stat(path, &target) && is_job_file(&target, jobs, njobs)) {
		rc_err("output %s: is a job file of this run: writing the result there would lose it (pass another -o)",
		       path);
		return -EEXIST;
	}
	if (force)
		return 0;
	if (S_ISLNK(st.st_mode)) {
		rc_err("output %s: is a symbolic link; rdmaio would replace the link, not what it points to (pass the file it names, or --force to replace the link)",
		       path);
		return -EEXIST;
	}
	if (same_kind(path, schema, &what))
		return 0;
	rc_err("output %s: exists and %s, not %s: rdmaio will not replace it (pass another -o, or --force to replace it)",
	       path, what, kind);
	return -EEXIST;
}
