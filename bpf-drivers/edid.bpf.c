// SPDX-License-Identifier: GPL-2.0
/*
 * edid: a monitor's EDID EEPROM (I2C address 0x50 of a DDC bus), parsed.
 *
 * init reads the 128-byte base block in four I2C block reads, checks its
 * header and keeps it. read gives, as text:
 *
 *   checksum=valid
 *   name=QEMU Monitor
 *   preferred=1280x800
 *   mode=640x480@60
 *   ...
 *
 * whether the bytes sum to 0 as they should (QEMU's i2c-ddc leaves its
 * checksum 0: "invalid"), the monitor name (descriptor 0xfc), the preferred
 * mode (the first detailed timing) and the established modes it claims
 * (bytes 35-36). The
 * node is seekable: cat reads it once. An ioctl-free driver: everything a
 * reader needs is in the text.
 *
 * Declared for QEMU's i2c-ddc on the q35 machine's SMBus controller
 * (i2c-i801, whose adapter name ends with its I/O address: a trailing '*'
 * matches any); bpfdrv load --i2c-adapter points it at another DDC bus.
 */
#include "bpfdrv.bpf.h"

char _license[] SEC("license") = "GPL";

#define EDID_LEN	128
#define EDID_CHUNK	32	/* one I2C block read */
#define EDID_TEXT_MAX	512	/* a power of two */
#define EDID_LINE_MAX	48
#define EDID_NAME_MAX	13	/* a descriptor's text */

__u8 edid[EDID_LEN];
/* room for one line past the end: lines are copied whole */
char text[EDID_TEXT_MAX + EDID_LINE_MAX];
__u32 text_len;

/* The established timings of bytes 35 and 36, as bit 15..0. */
static const struct {
	__u16 w, h, hz;
} established[16] = {
	{ 720, 400, 70 }, { 720, 400, 88 }, { 640, 480, 60 }, { 640, 480, 67 },
	{ 640, 480, 72 }, { 640, 480, 75 }, { 800, 600, 56 }, { 800, 600, 60 },
	{ 800, 600, 72 }, { 800, 600, 75 }, { 832, 624, 75 }, { 1024, 768, 87 },
	{ 1024, 768, 60 }, { 1024, 768, 70 }, { 1024, 768, 75 }, { 1280, 1024, 75 },
};

/* Append a formatted line to text, while there is room. */
#define emit(fmt, args...)						\
	({								\
		char ___line[EDID_LINE_MAX];				\
		long ___n = BPF_SNPRINTF(___line, sizeof(___line),	\
					 fmt, ##args);			\
		__u32 ___at = text_len;					\
									\
		if (___n > 1 && ___n <= EDID_LINE_MAX &&		\
		    ___at < EDID_TEXT_MAX) {				\
			__builtin_memcpy(text + (___at & (EDID_TEXT_MAX - 1)), \
					 ___line, EDID_LINE_MAX);	\
			text_len = ___at + ___n - 1;			\
		}							\
	})

static int edid_read(struct bpfdrv_dev *dev)
{
	__u8 sum = 0;
	int i, n;

	for (i = 0; i < EDID_LEN / EDID_CHUNK; i++) {
		n = bpfdrv_i2c_read_block(dev, 0, i * EDID_CHUNK,
					  edid + i * EDID_CHUNK, EDID_CHUNK);
		if (n < 0)
			return n;
		if (n != EDID_CHUNK)
			return -EIO;
	}
	/* the header: 00 ff ff ff ff ff ff 00 */
	if (edid[0] || edid[7])
		return -EINVAL;
	for (i = 1; i < 7; i++)
		if (edid[i] != 0xff)
			return -EINVAL;
	/* all 128 bytes sum to 0; as edid-decode, say so and go on */
	for (i = 0; i < EDID_LEN; i++)
		sum += edid[i];
	/* bpfdrv's formatting helpers format numbers, not strings */
	if (sum)
		emit("checksum=invalid\n");
	else
		emit("checksum=valid\n");
	return 0;
}

/* The monitor name descriptor (type 0xfc) of the four at 54 + 18 * k. */
static void edid_name(void)
{
	char name[EDID_NAME_MAX + 1] = {};
	int k, i, at;

	for (k = 0; k < 4; k++) {
		at = 54 + 18 * k;
		if (edid[at] || edid[at + 1] || edid[at + 3] != 0xfc)
			continue;
		for (i = 0; i < EDID_NAME_MAX; i++) {
			char c = edid[(at + 5 + i) & (EDID_LEN - 1)];

			if (c == '\n')
				break;
			name[i] = c;
		}
		/* copied, not formatted: %s is not among bpfdrv's formats */
		emit("name=");
		for (k = 0; k < EDID_NAME_MAX && k < i && text_len < EDID_TEXT_MAX; k++)
			text[text_len++ & (EDID_TEXT_MAX - 1)] = name[k];
		emit("\n");
		return;
	}
}

SEC("struct_ops.s/edid_init")
int BPF_PROG(edid_init, struct bpfdrv_dev *dev)
{
	__u16 w, h, bits;
	int err, i;

	err = edid_read(dev);
	if (err)
		return err;
	edid_name();
	/* the first detailed timing: pixel clock non-zero */
	if (edid[54] || edid[55]) {
		w = edid[56] | (edid[58] & 0xf0) << 4;
		h = edid[59] | (edid[61] & 0xf0) << 4;
		emit("preferred=%ux%u\n", w, h);
	}
	/* established timings: bit 15 - i of bytes 35-36 (a loop the verifier checks once) */
	bits = edid[35] << 8 | edid[36];
	bpfdrv_for(i, dev, 0, 16) {
		if (bits & (0x8000 >> i))
			emit("mode=%ux%u@%u\n", established[i].w,
			     established[i].h, established[i].hz);
	}
	return 0;
}

SEC("struct_ops/edid_read")
int BPF_PROG(edid_read_text, struct bpfdrv_dev *dev, struct bpfdrv_file *file,
	     struct bpfdrv_io *io)
{
	__u64 pos = io->pos;
	__u32 n;

	if (pos >= text_len)
		return 0;
	n = text_len - pos;
	if (n > io->len)
		n = io->len;
	return bpfdrv_io_store_at(io, text, sizeof(text), pos, n) ?: n;
}

SEC(".struct_ops.link")
struct chr_ext_ops edid_ops = {
	.init = (void *)edid_init,
	.read = (void *)edid_read_text,
	.name = "edid",
	.abi_version = BPFDRV_ABI_VERSION,
	.flags = BPFDRV_F_SEEKABLE,
	.i2c_adapter = "SMBus I801 adapter*",
	.i2c_addrs = { 0x50 },
};
