# lab/: the exact lab's instruction counter (lab/README.md, "Counting
# instructions"): a qemu TCG plugin and the mark a guest process runs to close
# a window. Not in `all`: the plugin needs qemu's plugin header, fetched from
# the Debian source of the installed qemu. Always in build/lab, where lab/run
# looks for them.
QEMU_PLUGIN_H := build/qemu-plugin/qemu-plugin.h
LAB_INSN := build/lab/insncount.so build/lab/insnmark

# Checked on every make (a dpkg-query): the header is fetched again only
# when the installed qemu changed, and then the plugin is rebuilt.
$(QEMU_PLUGIN_H): FORCE_QEMU_PLUGIN_H
	@scripts/qemu-plugin-h $(@D)

.PHONY: FORCE_QEMU_PLUGIN_H
FORCE_QEMU_PLUGIN_H:

build/lab/insncount.so: lab/plugin/insncount.c $(QEMU_PLUGIN_H)
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -fPIC -shared -Ibuild/qemu-plugin -o $@ $<

build/lab/insnmark: lab/plugin/insnmark.c
	@mkdir -p $(@D)
	$(CC) $(CSTD) $(WARN) $(CFLAGS) -o $@ $<

lab-insn: $(LAB_INSN)
