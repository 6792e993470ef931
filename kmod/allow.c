// SPDX-License-Identifier: GPL-2.0
/*
 * What a driver may call: an allow-list, not a deny-list, because the BPF
 * core adds helpers and kfuncs for every program type with each release.
 *
 * Helpers: get_func_proto answers only for the helpers listed here, so the
 * verifier refuses any other at load. The three that format (snprintf,
 * trace_printk, trace_vprintk) are wrapped: they format scalars only, as
 * %s and %p read whatever address they are given, and check a copy of
 * the format that they then format, as a format in a map may change.
 *
 * Kernel kfuncs and variables, before verification (check_member): each
 * kfunc call of the kernel's by name (the verifier turns some into plain
 * instructions), and no __ksym variable's address.
 *
 * Kfuncs and memory, after: the verifier admits the BPF core's generic
 * kfuncs for every program type, so each verified program is checked when
 * its map is written (attach and update): every kfunc call must go to
 * bpfdrv's own kfuncs or to the short generic list below, and no
 * instruction may load through an untrusted pointer (BPF_PROBE_MEM and
 * kin: a pointer kept past its call, a cast, an arena). The program is
 * taken from the map value's descriptor in init_member; validate then
 * checks that the BPF core installed that same program (it writes the
 * installed program's ID back into the value), so replacing the
 * descriptor in between is refused.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/ctype.h>
#include <linux/filter.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "call.h"
#include "allow.h"
#include "loop.h"

/*
 * Modules whose kfuncs drivers may call too, comma-separated, set by the
 * administrator: a vendor's kfunc module, or the selftests' test kfuncs.
 */
static char grant_kfuncs_of[128];
module_param_string(grant_kfuncs_of, grant_kfuncs_of, sizeof(grant_kfuncs_of), 0644);
MODULE_PARM_DESC(grant_kfuncs_of,
		 "Modules whose kfuncs drivers may call, besides bpfdrv's (comma-separated; default: none)");

/* Is module @mod named in grant_kfuncs_of? */
static bool bpfdrv_module_granted(const char *mod, size_t len)
{
	const char *p = grant_kfuncs_of;
	bool found = false;
	size_t n;

	kernel_param_lock(THIS_MODULE);
	while (*p && !found) {
		n = strcspn(p, ",\n");
		found = n == len && !strncmp(p, mod, len);
		p += n;
		if (*p)
			p++;
	}
	kernel_param_unlock(THIS_MODULE);
	return found;
}

/* --- helpers --- */

/*
 * A format with scalar conversions only: %d %i %u %x %X %c (with flags,
 * width, precision and l or ll) and %%.
 */
static bool bpfdrv_fmt_scalars(const char *fmt, u32 size)
{
	u32 i = 0;

	while (i < size && fmt[i]) {
		if (fmt[i++] != '%')
			continue;
		if (i < size && fmt[i] == '%') {
			i++;
			continue;
		}
		while (i < size && fmt[i] && strchr("-+ #0", fmt[i]))
			i++;
		while (i < size && (isdigit(fmt[i]) || fmt[i] == '.'))
			i++;
		if (i < size && fmt[i] == 'l')
			i++;
		if (i < size && fmt[i] == 'l')
			i++;
		if (i >= size || !fmt[i] || !strchr("diuxXc", fmt[i]))
			return false;
		i++;
	}
	return true;
}

/* The base prototypes the wrappers call, copied once with func replaced. */
static DEFINE_MUTEX(bpfdrv_proto_lock);
static const struct bpf_func_proto *bpfdrv_base_snprintf;
static const struct bpf_func_proto *bpfdrv_base_printk;
static const struct bpf_func_proto *bpfdrv_base_vprintk;
static struct bpf_func_proto bpfdrv_snprintf_proto;
static struct bpf_func_proto bpfdrv_printk_proto;
static struct bpf_func_proto bpfdrv_vprintk_proto;

BPF_CALL_5(bpfdrv_snprintf, char *, str, u32, str_size, char *, fmt,
	   const void *, args, u32, data_len)
{
	/*
	 * The verifier checked that fmt is a NUL-terminated string in a
	 * frozen map the program cannot write (ARG_PTR_TO_CONST_STR): it
	 * cannot change between this check and the formatting.
	 */
	if (!bpfdrv_fmt_scalars(fmt, U32_MAX))
		return -EINVAL;
	return bpfdrv_base_snprintf->func((long)str, str_size, (long)fmt,
					  (long)args, data_len);
}

/*
 * trace_printk's format may be any memory the program reads, a map that
 * user space maps writable included: it is copied, and the copy checked
 * and formatted, so no one can turn %d into %s after the check.
 */
#define BPFDRV_FMT_MAX	256

BPF_CALL_5(bpfdrv_trace_printk, char *, fmt, u32, fmt_size, u64, arg1,
	   u64, arg2, u64, arg3)
{
	char copy[BPFDRV_FMT_MAX];

	if (fmt_size > sizeof(copy))
		return -E2BIG;
	memcpy(copy, fmt, fmt_size);
	if (!bpfdrv_fmt_scalars(copy, fmt_size))
		return -EINVAL;
	return bpfdrv_base_printk->func((long)copy, fmt_size, arg1, arg2, arg3);
}

BPF_CALL_4(bpfdrv_trace_vprintk, char *, fmt, u32, fmt_size,
	   const void *, args, u32, data_len)
{
	char copy[BPFDRV_FMT_MAX];

	if (fmt_size > sizeof(copy))
		return -E2BIG;
	memcpy(copy, fmt, fmt_size);
	if (!bpfdrv_fmt_scalars(copy, fmt_size))
		return -EINVAL;
	return bpfdrv_base_vprintk->func((long)copy, fmt_size, (long)args,
					 data_len, 0);
}

/* @wrap: a copy of the base prototype @base that calls @func instead. */
static const struct bpf_func_proto *
bpfdrv_wrap_proto(const struct bpf_func_proto *base,
		  const struct bpf_func_proto **saved,
		  struct bpf_func_proto *wrap,
		  u64 (*func)(u64, u64, u64, u64, u64))
{
	if (!base)
		return NULL;
	mutex_lock(&bpfdrv_proto_lock);
	if (!*saved) {
		*wrap = *base;
		wrap->func = func;
		*saved = base;
	}
	mutex_unlock(&bpfdrv_proto_lock);
	return *saved == base ? wrap : NULL;
}

const struct bpf_func_proto *
bpfdrv_get_func_proto(enum bpf_func_id func_id, const struct bpf_prog *prog)
{
	const struct bpf_func_proto *base = bpf_base_func_proto(func_id, prog);

	switch (func_id) {
	/*
	 * maps, locks, clocks: no memory but the driver's. Not bpf_timer,
	 * whose callbacks the core runs in softirq outside bpfdrv's call
	 * primitive, budgets and detach: bpfdrv_timer_start() instead.
	 */
	case BPF_FUNC_map_lookup_elem:
	case BPF_FUNC_map_update_elem:
	case BPF_FUNC_map_delete_elem:
	case BPF_FUNC_map_push_elem:
	case BPF_FUNC_map_pop_elem:
	case BPF_FUNC_map_peek_elem:
	case BPF_FUNC_spin_lock:
	case BPF_FUNC_spin_unlock:
	case BPF_FUNC_ktime_get_ns:
	case BPF_FUNC_ktime_get_boot_ns:
	case BPF_FUNC_ktime_get_coarse_ns:
	case BPF_FUNC_jiffies64:
	case BPF_FUNC_get_prandom_u32:
	case BPF_FUNC_get_smp_processor_id:
	case BPF_FUNC_get_numa_node_id:
		return base;
	case BPF_FUNC_snprintf:
		return bpfdrv_wrap_proto(base, &bpfdrv_base_snprintf,
					 &bpfdrv_snprintf_proto, bpfdrv_snprintf);
	case BPF_FUNC_trace_printk:
		return bpfdrv_wrap_proto(base, &bpfdrv_base_printk,
					 &bpfdrv_printk_proto, bpfdrv_trace_printk);
	case BPF_FUNC_trace_vprintk:
		return bpfdrv_wrap_proto(base, &bpfdrv_base_vprintk,
					 &bpfdrv_vprintk_proto, bpfdrv_trace_vprintk);
	default:
		return NULL;
	}
}

/* --- kfuncs and loads, on the verified program --- */

/*
 * The last refusal, /sys/kernel/bpfdrv/last_refusal: "SEQ MESSAGE", SEQ
 * counting refusals, so a loader tells a new one from an old one.
 */
static DEFINE_SPINLOCK(bpfdrv_refusal_lock);
static char bpfdrv_refusal[2 * BPFDRV_EXIT_MSG_MAX];
static unsigned long bpfdrv_refusals;

static __printf(2, 0) int bpfdrv_vrefuse(int err, const char *fmt,
					  va_list args)
{
	char msg[sizeof(bpfdrv_refusal)];

	vscnprintf(msg, sizeof(msg), fmt, args);
	pr_info("%s\n", msg);
	spin_lock(&bpfdrv_refusal_lock);
	strscpy(bpfdrv_refusal, msg, sizeof(bpfdrv_refusal));
	bpfdrv_refusals++;
	spin_unlock(&bpfdrv_refusal_lock);
	return err;
}

static __printf(1, 2) int bpfdrv_refuse(const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = bpfdrv_vrefuse(-EACCES, fmt, args);
	va_end(args);
	return ret;
}

/**
 * bpfdrv_refuse_err - refuse a driver's declaration, saying why where the
 *	tool reads it back (last_refusal), not only in the kernel log
 * @err: what the refusal returns
 * @fmt: why
 */
int bpfdrv_refuse_err(int err, const char *fmt, ...)
{
	va_list args;
	int ret;

	va_start(args, fmt);
	ret = bpfdrv_vrefuse(err, fmt, args);
	va_end(args);
	return ret;
}

/* /sys/kernel/bpfdrv/last_refusal: refusals so far, and the last one's why */
static ssize_t last_refusal_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	int len;

	spin_lock(&bpfdrv_refusal_lock);
	len = sysfs_emit(buf, "%lu %s\n", bpfdrv_refusals, bpfdrv_refusal);
	spin_unlock(&bpfdrv_refusal_lock);
	return len;
}

struct kobj_attribute bpfdrv_attr_last_refusal = __ATTR_RO(last_refusal);

static bool bpfdrv_kfunc_allowed(unsigned long addr, char *sym)
{
	char *end, *mod;

	sprint_symbol(sym, addr);
	if (within_module(addr, THIS_MODULE))
		return true;
	/* "name+0x0/0x50": the start of a function; " [mod]" in a module */
	end = strchr(sym, '+');
	if (!end || !strstarts(end, "+0x0/"))
		return false;
	mod = strchr(end, '[');
	if (mod) {
		/* "name [mod]", for the refusal's message */
		size_t len = strcspn(mod + 1, "]");

		memmove(end + 2, mod + 1, len);
		memcpy(end, " [", 2);
		memcpy(end + 2 + len, "]", 2);
		return bpfdrv_module_granted(end + 2, len);
	}
	*end = '\0';	/* the kernel's own: none is granted */
	return false;
}

/* A load or store the JIT guards with an exception table: untrusted memory. */
static bool bpfdrv_insn_probes(const struct bpf_insn *insn)
{
	u8 mode = BPF_MODE(insn->code);

	switch (BPF_CLASS(insn->code)) {
	case BPF_LDX:
		return mode == BPF_PROBE_MEM || mode == BPF_PROBE_MEMSX ||
#ifdef BPF_PROBE_MEM32SX
		       mode == BPF_PROBE_MEM32SX ||
#endif
		       mode == BPF_PROBE_MEM32;
	case BPF_STX:	/* BPF_ATOMIC shares 0xc0 with PROBE_MEM32SX of LDX */
		return mode == BPF_PROBE_MEM32 || mode == BPF_PROBE_ATOMIC;
	case BPF_ST:
		return mode == BPF_PROBE_MEM32;
	}
	return false;
}

/*
 * What a callback on the dma-fence signalling path (call.h) may call: the
 * kfuncs that neither sleep, allocate, take a lock a waiter for a fence
 * may hold, nor touch what the instance's mutex guards (its DMA buffers,
 * rings, files). Others are refused at attach, on the verified program.
 */
static const char * const bpfdrv_fence_kfuncs[] = {
	"bpfdrv_io_data", "bpfdrv_io_load", "bpfdrv_io_store",
	"bpfdrv_io_load_at", "bpfdrv_io_store_at",
	"bpfdrv_dev_priv", "bpfdrv_dev_wake", "bpfdrv_eject",
	"bpf_iter_bpfdrv_new", "bpf_iter_bpfdrv_next",
	"bpf_iter_bpfdrv_destroy",
	"bpfdrv_pci_bar_len", "bpfdrv_mmio_read", "bpfdrv_mmio_write",
	"bpfdrv_job_done", "bpfdrv_job_bo_load", "bpfdrv_job_bo_store",
	"bpfdrv_job_bo_dma", "bpfdrv_job_slot",
	"bpfdrv_job_vm_load", "bpfdrv_job_vm_store", "bpfdrv_job_vm_dma",
	"bpfdrv_timer_start", "bpfdrv_timer_cancel",
};

/* @sym, as sprint_symbol() wrote a function of this module, is granted? */
static bool bpfdrv_fence_kfunc(const char *sym)
{
	size_t len = strcspn(sym, "+");
	int i;

	for (i = 0; i < ARRAY_SIZE(bpfdrv_fence_kfuncs); i++)
		if (strlen(bpfdrv_fence_kfuncs[i]) == len &&
		    !strncmp(sym, bpfdrv_fence_kfuncs[i], len))
			return true;
	return false;
}

/*
 * What one path of a program may copy. The verifier bounds a path's
 * instructions, not the work of its calls: a map helper copies a whole
 * value, and a kfunc at most the program memory it is given (a map value
 * or the stack) or an I/O window (BPFDRV_IO_MAX), so a bounded loop of
 * calls on 4 MiB values would hold its CPU for seconds. A path of N
 * instructions (at most the N the verifier processed) makes at most N / 2
 * calls, each copying at most the largest of those; that is bounded here.
 * bpfdrv_for() loops are verified in a few passes and bounded in time
 * instead (kmod/loop.c).
 */
#define BPFDRV_PATH_COPY_MAX	(256ULL << 20)

static u32 bpfdrv_map_value_max(const struct bpf_map *map)
{
	if (map->inner_map_meta)	/* the value size of every inner map */
		return max(map->value_size, map->inner_map_meta->value_size);
	return map->value_size;
}

static int bpfdrv_prog_copy_bound(struct bpf_prog *prog, const char *cb)
{
	struct bpf_prog_aux *aux = prog->aux;
	u32 value_max = BPFDRV_IO_MAX, i;
	u64 bytes;

	mutex_lock(&aux->used_maps_mutex);
	for (i = 0; i < aux->used_map_cnt; i++)
		value_max = max(value_max, bpfdrv_map_value_max(aux->used_maps[i]));
	mutex_unlock(&aux->used_maps_mutex);
	bytes = (u64)(aux->verified_insns / 2) * value_max;
	if (bytes <= BPFDRV_PATH_COPY_MAX)
		return 0;
	return bpfdrv_refuse("%s: %s: %u verified instructions with %u-byte map values may copy %llu MiB on one path (at most %llu): use smaller values, or loop with bpfdrv_for()",
			     aux->name, cb, aux->verified_insns, value_max,
			     bytes >> 20, BPFDRV_PATH_COPY_MAX >> 20);
}

/*
 * Program @prog, for callback @cb (on the dma-fence path if @fence), calls
 * and reads only what is allowed.
 */
static int bpfdrv_prog_check(struct bpf_prog *prog, const char *cb,
			     bool fence)
{
	char sym[KSYM_SYMBOL_LEN];
	u32 i;
	int ret;

	ret = bpfdrv_prog_copy_bound(prog, cb);
	if (ret)
		return ret;

	for (i = 0; i < prog->len; i++) {
		const struct bpf_insn *insn = &prog->insnsi[i];

		if (bpfdrv_insn_probes(insn))
			return bpfdrv_refuse("%s: %s: instruction %u reads through an untrusted pointer (a pointer kept past its call, or cast)",
					     prog->aux->name, cb, i);
		if (insn->code != (BPF_JMP | BPF_CALL) ||
		    insn->src_reg != BPF_PSEUDO_KFUNC_CALL)
			continue;
		/* x86-64's JIT calls kfuncs at an offset from __bpf_call_base */
		if (!IS_ENABLED(CONFIG_X86_64))
			return bpfdrv_refuse("%s: %s: kfunc calls cannot be checked on this architecture",
					     prog->aux->name, cb);
		if (!bpfdrv_kfunc_allowed((unsigned long)__bpf_call_base +
					  insn->imm, sym))
			return bpfdrv_refuse("%s: %s: kfunc %s is not one bpfdrv grants",
					     prog->aux->name, cb, sym);
		if (fence && !bpfdrv_fence_kfunc(sym))
			return bpfdrv_refuse("%s: %s: kfunc %s may sleep, allocate or take the instance's lock: not on the dma-fence signalling path",
					     prog->aux->name, cb, sym);
	}
	return 0;
}

/*
 * The name of vmlinux BTF function @id, through @btf (split on vmlinux's),
 * or NULL. The kernel exports no lookup of BTF strings; vmlinux's BTF is
 * parsed in place (types[] point into the blob after its header, strings
 * follow the types), so the header is found before type 1 and checked by
 * its magic.
 */
static const char *bpfdrv_vmlinux_btf_name(const struct btf *btf, u32 id)
{
	const struct btf_type *first = btf_type_by_id(btf, 1);
	const struct btf_type *t = btf_type_by_id(btf, id);
	/* the header grew from 24 bytes (with layout_off/len, to 32) */
	static const u32 hdr_lens[] = { 24, 32 };
	const struct btf_header *hdr;
	int i;

	if (!first || !t)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(hdr_lens); i++) {
		hdr = (const void *)first - hdr_lens[i];
		if (hdr->magic == BTF_MAGIC && hdr->hdr_len == hdr_lens[i] &&
		    !hdr->type_off)
			break;
	}
	if (i == ARRAY_SIZE(hdr_lens) || (const void *)t < (const void *)first ||
	    (const void *)t >= (const void *)first + hdr->type_len ||
	    BTF_INFO_KIND(t->info) != BTF_KIND_FUNC || t->name_off >= hdr->str_len)
		return NULL;
	return (const char *)first + hdr->str_off + t->name_off;
}

/*
 * Before verification (check_member): no kernel variable (__ksym), as the
 * verifier lets a program read those directly, and after verification the
 * load of their address looks like any other constant; and each call of a
 * kernel kfunc by name, as the verifier turns some (bpf_rdonly_cast) into
 * plain instructions. Module kfuncs are checked after verification.
 *
 * And nothing whose work the verifier does not bound by the instructions of
 * one path (kmod/loop.c): no may_goto (its rewrite is plain instructions),
 * and no global function, which is verified once, not per call.
 */
int bpfdrv_allow_unverified(const struct bpf_prog *prog, const char *cb)
{
	const struct bpf_prog_aux *aux = prog->aux;
	u32 i;

	for (i = 1; aux->func_info_aux && i < aux->func_info_cnt; i++)
		if (aux->func_info_aux[i].linkage == BTF_FUNC_GLOBAL)
			return bpfdrv_refuse("%s: %s: function %u is global: its work per call is not bounded; make it static",
					     aux->name, cb, i);
	for (i = 0; i < prog->len; i++) {
		const struct bpf_insn *insn = &prog->insnsi[i];
		const char *name;

		if (insn->code == (BPF_JMP | BPF_JCOND))
			return bpfdrv_refuse("%s: %s: instruction %u is may_goto (can_loop, cond_break): loop with bpfdrv_for()",
					     prog->aux->name, cb, i);
		if (insn->code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    insn->src_reg == BPF_PSEUDO_BTF_ID)
			return bpfdrv_refuse("%s: %s: instruction %u takes the address of a kernel variable (__ksym)",
					     prog->aux->name, cb, i);
		if (insn->code != (BPF_JMP | BPF_CALL) ||
		    insn->src_reg != BPF_PSEUDO_KFUNC_CALL || insn->off)
			continue;
		/* a struct_ops program's attach_btf: the module's, on vmlinux's */
		name = bpfdrv_vmlinux_btf_name(prog->aux->attach_btf, insn->imm);
		if (!name)
			return bpfdrv_refuse("%s: %s: instruction %u calls a kfunc whose name cannot be read from the kernel's BTF",
					     prog->aux->name, cb, i);
		return bpfdrv_refuse("%s: %s: kfunc %s is not one bpfdrv grants",
					     prog->aux->name, cb, name);
	}
	return 0;
}

/*
 * The map values being written, between init_member and validate: the
 * program checked for each callback member, by the ID the core writes back.
 */
#define BPFDRV_PENDING_MAX	32

struct bpfdrv_pending {
	struct list_head node;
	const void *kdata;
	const void *udata;
	u32 nr;
	struct {
		u32 moff;
		u32 prog_id;
	} checked[BPFDRV_CB_NR];
};

static DEFINE_MUTEX(bpfdrv_pending_lock);
static LIST_HEAD(bpfdrv_pending);
static unsigned int bpfdrv_nr_pending;

static struct bpfdrv_pending *bpfdrv_pending_find(const void *kdata)
{
	struct bpfdrv_pending *p;

	list_for_each_entry(p, &bpfdrv_pending, node)
		if (p->kdata == kdata)
			return p;
	return NULL;
}

static void bpfdrv_pending_del(struct bpfdrv_pending *p)
{
	list_del(&p->node);
	bpfdrv_nr_pending--;
	kfree(p);
}

/* The ID checked for member @moff of @p, or 0. */
static u32 bpfdrv_pending_id(const struct bpfdrv_pending *p, u32 moff)
{
	u32 i;

	for (i = 0; i < p->nr; i++)
		if (p->checked[i].moff == moff)
			return p->checked[i].prog_id;
	return 0;
}

/* Record @id for member @moff of the value at @kdata; false if no room. */
static bool bpfdrv_pending_set(const void *kdata, const void *udata, u32 moff,
			       u32 id)
{
	struct bpfdrv_pending *p;
	bool ok = true;
	u32 i;

	mutex_lock(&bpfdrv_pending_lock);
	p = bpfdrv_pending_find(kdata);
	if (!p) {
		/* a write the core abandoned leaves its record: drop the oldest */
		if (bpfdrv_nr_pending == BPFDRV_PENDING_MAX)
			bpfdrv_pending_del(list_last_entry(&bpfdrv_pending,
							   struct bpfdrv_pending, node));
		p = kzalloc(sizeof(*p), GFP_KERNEL);
		if (!p) {
			ok = false;
			goto out;
		}
		p->kdata = kdata;
		list_add(&p->node, &bpfdrv_pending);
		bpfdrv_nr_pending++;
	}
	if (p->udata != udata)		/* a new write at a reused address */
		p->nr = 0;
	p->udata = udata;
	for (i = 0; i < p->nr && p->checked[i].moff != moff; i++)
		;
	if (i == ARRAY_SIZE(p->checked)) {
		ok = false;
		goto out;
	}
	p->checked[i].moff = moff;
	p->checked[i].prog_id = id;
	if (i == p->nr)
		p->nr++;
out:
	mutex_unlock(&bpfdrv_pending_lock);
	return ok;
}

/*
 * init_member for callback @cb at byte @moff: check the program whose
 * descriptor the value names, and remember which it was.
 */
int bpfdrv_allow_member(u32 moff, const char *cb, void *kdata,
			const void *udata)
{
	int fd = *(const unsigned long *)(udata + moff);
	struct bpf_prog *prog;
	u32 id = 0;
	int ret;

	if (fd) {
		prog = bpf_prog_get_type_dev(fd, BPF_PROG_TYPE_STRUCT_OPS, false);
		if (IS_ERR(prog))
			return 0;	/* the core refuses it with its own error */
		ret = bpfdrv_prog_check(prog, cb, bpfdrv_fence_member(moff));
		id = prog->aux->id;
		bpf_prog_put(prog);
		if (ret)
			return ret;
	}
	if (!bpfdrv_pending_set(kdata, udata, moff, id))
		return -ENOMEM;
	return 0;
}

/*
 * validate: each callback's installed program, whose ID the core wrote
 * back into the value, is the one checked. @moffs: the callback members.
 */
int bpfdrv_allow_validate(const void *kdata, const u32 *moffs, int n)
{
	struct bpfdrv_pending *p;
	int i, ret = 0;

	mutex_lock(&bpfdrv_pending_lock);
	p = bpfdrv_pending_find(kdata);
	for (i = 0; i < n && !ret; i++) {
		unsigned long id;

		if (!*(void * const *)(kdata + moffs[i]))
			continue;	/* no program for this callback */
		id = p ? *(const unsigned long *)(p->udata + moffs[i]) : 0;
		if (!p || !id || id != bpfdrv_pending_id(p, moffs[i]))
			ret = bpfdrv_refuse("callback at offset %u: the program installed is not the one checked",
					    moffs[i]);
	}
	if (p)
		bpfdrv_pending_del(p);
	mutex_unlock(&bpfdrv_pending_lock);
	return ret;
}
