/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a BPF object's global variable lies in the loader's mapping of its
 * section (.data, .bss), found by the section's BTF, for the selftests
 * that drive a test driver through its globals.
 */
#ifndef __BPFDRV_DATASEC_H
#define __BPFDRV_DATASEC_H

#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

/* Variable @name of section @sec (".data", ".bss") of loaded @obj, or NULL. */
static inline void *datasec_var(struct bpf_object *obj, const char *sec,
				const char *name)
{
	struct btf *btf = bpf_object__btf(obj);
	struct bpf_map *map = bpf_object__find_map_by_name(obj, sec);
	const struct btf_var_secinfo *vs;
	const struct btf_type *t;
	size_t size;
	char *base;
	int id, i;

	id = btf ? btf__find_by_name_kind(btf, sec, BTF_KIND_DATASEC) : -1;
	if (!map || id < 0)
		return NULL;
	base = bpf_map__initial_value(map, &size);
	t = btf__type_by_id(btf, id);
	vs = btf_var_secinfos(t);
	for (i = 0; base && i < btf_vlen(t); i++, vs++) {
		const struct btf_type *var = btf__type_by_id(btf, vs->type);

		if (!strcmp(btf__name_by_offset(btf, var->name_off), name))
			return base + vs->offset;
	}
	return NULL;
}

#endif /* __BPFDRV_DATASEC_H */
