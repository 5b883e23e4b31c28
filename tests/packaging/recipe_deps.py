# SPDX-License-Identifier: GPL-2.0-or-later
"""Read a packaging recipe the way its build tool would, and print what it
declares for one configuration:

    deps: PACKAGE...      the build dependencies (the tool's package names)
    rdeps: PACKAGE...     run-time dependencies given by hand (Yocto)
    opts: OPTION...       the configure options
    enabled: SYMBOL...    (Buildroot) the Kconfig symbols set to y

  recipe_deps.py buildroot DIR [SYMBOL=y|n ...]
      DIR holds Config.in and tunetop.mk. The symbols are a .config: the
      package's own options get their Kconfig defaults unless given, their
      `depends on` are checked against a glibc toolchain with MMU, wchar,
      threads and shared libraries (BR2_STATIC_LIBS=y changes that), their
      `select`s are followed, then tunetop.mk is evaluated by GNU make with
      every y symbol set (Buildroot's `github` and `autotools-package`
      stubbed).
  recipe_deps.py yocto FILE.bb TARGET_ARCH [PACKAGECONFIG]
      The assignments of the recipe (=, ?=, ??=, +=, :append, :remove and
      OVERRIDES-conditional forms) are evaluated with the overrides of
      TARGET_ARCH (aarch64, arm, x86_64...); PACKAGECONFIG, when given,
      replaces the recipe's default as `PACKAGECONFIG:pn-tunetop = "..."` in
      local.conf would. Each PACKAGECONFIG item adds its configure option,
      DEPENDS and RDEPENDS as base.bbclass does. A dependency that meta-oe
      or oe-core does not build for TARGET_ARCH (COMPATIBLE_HOST) stops it as
      bitbake would ("Nothing PROVIDES").

Exits 1 with one line on stderr when the recipe cannot be read or the
configuration is impossible.
"""
import os
import re
import subprocess
import sys

# ---- Buildroot ---------------------------------------------------------------
TOOLCHAIN = {
    "BR2_USE_MMU": "y",
    "BR2_USE_WCHAR": "y",
    "BR2_TOOLCHAIN_HAS_THREADS": "y",
    "BR2_TOOLCHAIN_HAS_THREADS_NPTL": "y",
    "BR2_STATIC_LIBS": "n",
}


def die(msg):
    sys.stderr.write("recipe_deps: %s\n" % msg)
    sys.exit(1)


def kexpr(expr, val):
    """A Kconfig expression of symbols, !, && and || (no parentheses)."""
    expr = expr.split("#", 1)[0].strip()
    if "(" in expr:
        die("parentheses in '%s' are not handled" % expr)
    for alt in expr.split("||"):
        if all(
            (val.get(t.strip()[1:].strip(), "n") != "y")
            if t.strip().startswith("!")
            else (val.get(t.strip(), "n") == "y")
            for t in alt.split("&&")
        ):
            return True
    return False


def kconfig_parse(path):
    syms, order, cur, ifs, in_help = {}, [], None, [], False
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if in_help:
            if line == "" or line.startswith("\t  "):
                continue
            in_help = False
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        m = re.match(r"^config\s+(\w+)$", line)
        if m:
            cur = {"depends": list(ifs), "select": [], "default": "n", "type": None}
            syms[m.group(1)] = cur
            order.append(m.group(1))
            continue
        m = re.match(r"^if\s+(.+)$", line)
        if m:
            ifs.append(m.group(1).strip())
            cur = None
            continue
        if s == "endif":
            ifs.pop()
            cur = None
            continue
        if re.match(r"^(comment|menu|endmenu|choice|endchoice|source)\b", line):
            cur = None
            continue
        if cur is None:
            continue
        if s == "help":
            in_help = True
        elif s.startswith("bool"):
            cur["type"] = "bool"
        elif s.startswith("default "):
            cur["default"] = s.split()[1]
        elif s.startswith("depends on "):
            cur["depends"].append(s[len("depends on ") :])
        elif s.startswith("select "):
            m = re.match(r"select\s+(\w+)(?:\s+if\s+(.+))?", s.split("#", 1)[0].strip())
            cur["select"].append((m.group(1), m.group(2)))
    if ifs:
        die("%s: 'if' without 'endif'" % path)
    return syms, order


def buildroot(d, args):
    cfg = os.path.join(d, "Config.in")
    mk = os.path.join(d, "tunetop.mk")
    syms, order = kconfig_parse(cfg)
    user = {}
    for a in args:
        k, _, v = a.partition("=")
        user[k] = v
    val = dict(TOOLCHAIN)
    val.update({k: v for k, v in user.items() if k not in syms})
    for _ in range(len(order) + 2):
        before = dict(val)
        for name in order:
            s = syms[name]
            visible = all(kexpr(e, val) for e in s["depends"])
            want = user.get(name, s["default"])
            if name in user and want == "y" and not visible:
                deps = " && ".join(e.split("#", 1)[0].strip() for e in s["depends"])
                die("%s=y has unmet dependencies (%s)" % (name, deps))
            val[name] = "y" if (visible and want == "y") else "n"
        for name in order:
            if val[name] != "y":
                continue
            for target, cond in syms[name]["select"]:
                if cond is None or kexpr(cond, val):
                    val[target] = "y"
        if val == before:
            break
    if val.get("BR2_PACKAGE_TUNETOP") != "y":
        die("BR2_PACKAGE_TUNETOP is not enabled")
    enabled = sorted(k for k, v in val.items() if v == "y")
    stub = (
        "github = https://github.com/$(1)/$(2)/archive/$(3)\n"
        "autotools-package = \n"
        "include %s\n"
        "print:\n"
        "\t@echo 'deps: $(strip $(TUNETOP_DEPENDENCIES))'\n"
        "\t@echo 'opts: $(strip $(TUNETOP_CONF_OPTS))'\n"
        "\t@echo 'autoreconf: $(strip $(TUNETOP_AUTORECONF))'\n"
        "\t@echo 'version: $(strip $(TUNETOP_VERSION))'\n"
        "\t@echo 'site: $(strip $(TUNETOP_SITE))'\n"
        "\t@echo 'source: $(strip $(or $(TUNETOP_SOURCE),tunetop-$(TUNETOP_VERSION).tar.gz))'\n" % mk
    )
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    r = subprocess.run(
        ["make", "-s", "-f", "-", "print"] + ["%s=y" % k for k in enabled],
        input=stub, capture_output=True, text=True, env=env,
    )
    if r.returncode != 0:
        die("make cannot read %s: %s" % (mk, r.stderr.strip().splitlines()[-1:]))
    sys.stdout.write(r.stdout)
    print("enabled: " + " ".join(e for e in enabled if e.startswith("BR2_PACKAGE_")))


# ---- Yocto -------------------------------------------------------------------
# what a TARGET_ARCH's OVERRIDES hold (besides pn-tunetop, class-target, linux)
ARCH_OVERRIDES = {
    "aarch64": ["aarch64", "arm64"],
    "arm": ["arm"],
    "x86_64": ["x86_64", "x86-64"],
    "i686": ["x86"],
    "riscv64": ["riscv64"],
    "powerpc64le": ["powerpc64le"],
    "powerpc64": ["powerpc64"],
}
# COMPATIBLE_HOST of the recipes tunetop's recipe may depend on, as in
# meta-openembedded (the rest build for every target)
COMPATIBLE_HOST = {"libpfm4": "powerpc64|aarch64"}
TARGET_SYS = {
    "aarch64": "aarch64-poky-linux",
    "arm": "arm-poky-linux-gnueabi",
    "x86_64": "x86_64-poky-linux",
    "i686": "i686-poky-linux",
    "riscv64": "riscv64-poky-linux",
    "powerpc64le": "powerpc64le-poky-linux",
    "powerpc64": "powerpc64-poky-linux",
}
# the install paths of bitbake.conf a recipe's configure options may name
# (oe-core with usrmerge, the default of systemd distros); another ${VAR}
# in an option is an error
BB_PATHS = {
    "prefix": "/usr",
    "datadir": "/usr/share",
    "libdir": "/usr/lib",
    "nonarch_libdir": "/usr/lib",
    "sysconfdir": "/etc",
    "systemd_unitdir": "/usr/lib/systemd",
    "systemd_system_unitdir": "/usr/lib/systemd/system",
}


def bb_expand(word):
    def one(m):
        if m.group(1) not in BB_PATHS:
            die("cannot expand ${%s} in '%s'" % (m.group(1), word))
        return BB_PATHS[m.group(1)]

    return re.sub(r"\$\{([A-Za-z0-9_]+)\}", one, word)


ASSIGN = re.compile(
    r'^(?P<var>[A-Za-z0-9_${}\-]+)(?P<ovr>(?::[A-Za-z0-9_${}\-]+)*)'
    r"(?:\[(?P<flag>[^\]]+)\])?\s*(?P<op>\?\?=|\?=|:=|\+=|=\+|\.=|=\.|=)\s*"
    r'"(?P<val>.*)"\s*$'
)


def bb_lines(path):
    buf = ""
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if not buf and (line.lstrip().startswith("#") or not line.strip()):
            continue
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        yield buf + line
        buf = ""
    if buf:
        yield buf


def yocto(path, arch, pkgconfig=None):
    if arch not in ARCH_OVERRIDES:
        die("unknown TARGET_ARCH %s" % arch)
    active = set(ARCH_OVERRIDES[arch] + ["pn-tunetop", "class-target", "linux", "libc-glibc"])
    ops, flags, inherits = {}, {}, []
    for line in bb_lines(path):
        if line.startswith("inherit "):
            inherits += line.split()[1:]
            continue
        m = ASSIGN.match(line)
        if not m:
            if re.match(r"^\s*(do_\w+|python|addtask|require|include|export)", line):
                continue
            die("%s: cannot read: %s" % (path, line))
        var, val, op = m.group("var"), m.group("val"), m.group("op")
        ovr = [o for o in m.group("ovr").split(":") if o]
        if m.group("flag"):
            if ovr:
                die("%s: overrides on a flag are not handled: %s" % (path, line))
            flags.setdefault(var, {})[m.group("flag")] = val
            continue
        ops.setdefault(var, []).append((ovr, op, val))

    def value(var, replace=None):
        base, weak = None, None
        tail = []
        for ovr, op, val in ops.get(var, []):
            kind = next((o for o in ovr if o in ("append", "prepend", "remove")), None)
            conds = [o for o in ovr if o not in ("append", "prepend", "remove")]
            if any(c not in active for c in conds):
                continue
            if kind:
                tail.append((kind, val))
            elif conds:
                tail.insert(0, ("set", val))
            elif op == "??=":
                weak = val
            elif op == "?=":
                base = val if base is None else base
            elif op in ("=", ":="):
                base = val
            elif op in ("+=",):
                base = ((base or "") + " " + val).strip()
            elif op == "=+":
                base = (val + " " + (base or "")).strip()
            elif op == ".=":
                base = (base or "") + val
            elif op == "=.":
                base = val + (base or "")
        v = base if base is not None else (weak or "")
        if replace is not None:
            v = replace
        for kind, val in [t for t in tail if t[0] == "set"]:
            v = val
        for kind, val in tail:
            if kind == "append":
                v += val
            elif kind == "prepend":
                v = val + v
        for kind, val in tail:
            if kind == "remove":
                v = " ".join(w for w in v.split() if w not in val.split())
        return v

    pc = value("PACKAGECONFIG", pkgconfig).split()
    items = flags.get("PACKAGECONFIG", {})
    for p in pc:
        if p not in items:
            die("PACKAGECONFIG item '%s' has no PACKAGECONFIG[%s]" % (p, p))
    deps = value("DEPENDS").split()
    rdeps = []
    for ovr, op, val in ops.get("RDEPENDS", []):
        if "${PN}" in ovr:
            rdeps += val.split()
    opts = value("EXTRA_OECONF").split()
    for name in sorted(items):
        f = (items[name].split(",") + [""] * 6)[:6]
        if name in pc:
            opts += f[0].split()
            deps += f[2].split()
            rdeps += f[3].split()
        else:
            opts += f[1].split()
    opts = [bb_expand(o) for o in opts]
    host = TARGET_SYS[arch]
    for d in deps:
        rx = COMPATIBLE_HOST.get(d)
        if rx and not re.match(rx, host):
            die(
                "Nothing PROVIDES '%s' for %s: its recipe is COMPATIBLE_HOST = \"%s\" "
                "(PACKAGECONFIG %s)" % (d, arch, rx, " ".join(pc))
            )
    print("deps: " + " ".join(deps))
    print("rdeps: " + " ".join(rdeps))
    print("opts: " + " ".join(opts))
    print("packageconfig: " + " ".join(pc))
    print("inherit: " + " ".join(inherits))
    print("src_uri: " + value("SRC_URI"))
    print("sha256: " + flags.get("SRC_URI", {}).get("sha256sum", ""))
    print("srcrev: " + value("SRCREV"))
    print("s: " + value("S"))
    for var in ("SYSTEMD_SERVICE", "SYSTEMD_AUTO_ENABLE"):
        pn = [val for ovr, op, val in ops.get(var, []) if ovr == ["${PN}"]]
        print("%s: %s" % (var.lower(), pn[-1] if pn else value(var)))


def main(argv):
    if len(argv) >= 2 and argv[0] == "buildroot":
        buildroot(argv[1], argv[2:])
    elif len(argv) in (3, 4) and argv[0] == "yocto":
        yocto(argv[1], argv[2], argv[3] if len(argv) == 4 else None)
    else:
        die("usage: recipe_deps.py buildroot DIR [SYM=y|n...] | yocto FILE.bb ARCH [PACKAGECONFIG]")


if __name__ == "__main__":
    main(sys.argv[1:])
