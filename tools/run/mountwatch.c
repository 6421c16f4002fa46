// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "rc_status.h"
#include "base/jsonread.h"
#include "run/mountwatch.h"

struct rio_mountwatch {
	char *root;
	json_object *seen;
};

struct rio_mountwatch *rio_mountwatch_new(const char *root)
{
	struct rio_mountwatch *w = calloc(1, sizeof(*w));

	if (!w)
		return NULL;
	w->root = strdup(root);
	w->seen = json_object_new_array();
	if (!w->root || !w->seen) {
		rio_mountwatch_delete(&w);
		return NULL;
	}
	return w;
}

void rio_mountwatch_sample(void *watch)
{
	struct rio_mountwatch *w = watch;
	json_object *now, *m;
	size_t i, j;

	now = rc_status_nfs_mounts(w->root);
	for (i = 0; i < rio_json_len(now); i++) {
		m = json_object_array_get_idx(now, i);
		for (j = 0; j < rio_json_len(w->seen); j++)
			if (json_object_equal(
				    m, json_object_array_get_idx(w->seen, j)))
				break;
		if (j == rio_json_len(w->seen))
			json_object_array_add(w->seen, json_object_get(m));
	}
	json_object_put(now);
}

json_object *rio_mountwatch_seen(struct rio_mountwatch *w)
{
	return json_object_get(w->seen);
}

void rio_mountwatch_delete(struct rio_mountwatch **w)
{
	if (!w || !*w)
		return;
	json_object_put((*w)->seen);
	free((*w)->root);
	free(*w);
	*w = NULL;
}
