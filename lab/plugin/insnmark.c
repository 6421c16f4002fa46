// SPDX-License-Identifier: GPL-2.0
/* Marks a point in the guest's instruction stream for lab/run --insn-count:
 * the insncount plugin writes the counts since the last mark when a process
 * executes this instruction. Run it before and after what is measured. */
int main(void)
{
	__asm__ volatile("xchg %%bx, %%bx" ::: "memory");
	return 0;
}
