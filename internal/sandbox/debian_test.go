package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcp-code-mode/mcp-code-mode/internal/testenv"
)

// Captured from Debian 12 (bookworm) with LC_ALL=C:
//
//	apt-cache depends --no-recommends --no-suggests --no-conflicts --no-breaks \
//	    --no-replaces --no-enhances python3.11-minimal libpython3.11-stdlib \
//	    libpam-runtime readline-common media-types
//
// plus the Suggests/Replaces tail of "apt-cache depends libc6" (types that
// must be ignored) and an arch-qualified heading.
const capturedAptDepends = `python3.11-minimal
  PreDepends: libc6
  Depends: libpython3.11-minimal
  Depends: libexpat1
  Depends: zlib1g
libpython3.11-stdlib
  Depends: libpython3.11-minimal
 |Depends: media-types
  Depends: mime-support
  Depends: libbz2-1.0
  Depends: libc6
  Depends: libcrypt1
libpam-runtime
 |Depends: debconf
  Depends: <debconf-2.0>
    cdebconf
    debconf
 |Depends: debconf
  Depends: cdebconf
  Depends: libpam-modules
readline-common
 |Depends: dpkg
  Depends: install-info
media-types
libc6:amd64
  Depends: libgcc-s1
  Recommends: libidn2-0
  Suggests: glibc-doc
 |Suggests: debconf
  Suggests: <debconf-2.0>
    cdebconf
    debconf
  Replaces: <libc6-amd64>
virt-user
  Depends: <no-provider>
  Depends: <awk>
    mawk
    original-awk
 |Depends: <gone>
  Depends: zlib1g:amd64
`

func TestDebianParseAptDepends(t *testing.T) {
	got := parseAptDepends([]byte(capturedAptDepends))
	want := map[string][]depGroup{
		"python3.11-minimal": {
			{{Name: "libc6"}}, {{Name: "libpython3.11-minimal"}}, {{Name: "libexpat1"}}, {{Name: "zlib1g"}},
		},
		"libpython3.11-stdlib": {
			{{Name: "libpython3.11-minimal"}},
			{{Name: "media-types"}, {Name: "mime-support"}},
			{{Name: "libbz2-1.0"}}, {{Name: "libc6"}}, {{Name: "libcrypt1"}},
		},
		"libpam-runtime": {
			{{Name: "debconf"}, {Name: "debconf-2.0", Virtual: true, Providers: []string{"cdebconf", "debconf"}}},
			{{Name: "debconf"}, {Name: "cdebconf"}},
			{{Name: "libpam-modules"}},
		},
		"readline-common": {{{Name: "dpkg"}, {Name: "install-info"}}},
		"media-types":     nil,
		"libc6":           {{{Name: "libgcc-s1"}}},
		"virt-user": {
			{{Name: "no-provider", Virtual: true}},
			{{Name: "awk", Virtual: true, Providers: []string{"mawk", "original-awk"}}},
			{{Name: "gone", Virtual: true}, {Name: "zlib1g"}},
		},
	}
	if !reflect.DeepEqual(got, want) {
		for k := range want {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%s:\n got  %+v\n want %+v", k, got[k], want[k])
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("unexpected package %s: %+v", k, got[k])
			}
		}
	}

	// What the closure follows for each package.
	chosen := func(pkg string) []string {
		var out []string
		for _, g := range got[pkg] {
			if d, ok := g.choose(deniedPackage); ok {
				out = append(out, d)
			}
		}
		return out
	}
	for pkg, want := range map[string][]string{
		"libpython3.11-stdlib": {"libpython3.11-minimal", "media-types", "libbz2-1.0", "libc6", "libcrypt1"},
		"libpam-runtime":       {"libpam-modules"}, // debconf, cdebconf and the virtual debconf-2.0 are denied
		"readline-common":      nil,                // dpkg | install-info: both denied
		"virt-user":            {"mawk", "zlib1g"}, // no provider: skipped; virtual first alternative without provider: next one
	} {
		if got := chosen(pkg); !slices.Equal(got, want) {
			t.Errorf("%s: chose %q, want %q", pkg, got, want)
		}
	}
}

func TestDebianParseDefaultPython(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"python3-minimal\n  PreDepends: python3.11-minimal\n  Depends: dpkg\n", "3.11"},
		{"python3-minimal\n  Depends: python3.13-minimal\n  Depends: dpkg\n", "3.13"},
		{"python3-minimal\n  Depends: <python3.12-minimal>\n    python3.12-minimal\n", "3.12"},
	} {
		got, err := parseDefaultPython([]byte(tc.out))
		if err != nil || got != tc.want {
			t.Errorf("parseDefaultPython(%q) = %q, %v; want %q", tc.out, got, err, tc.want)
		}
	}
	if _, err := parseDefaultPython([]byte("python3-minimal\n  Depends: dpkg\n")); err == nil {
		t.Error("no python3.X-minimal line: want an error")
	}
}

func TestDebianDenied(t *testing.T) {
	for _, p := range []string{"dpkg", "perl-base", "perl-modules-5.36", "libperl5.36", "dash", "bash", "debconf", "mime-support", "tar"} {
		if !deniedPackage(p) {
			t.Errorf("%s not denied", p)
		}
	}
	for _, p := range []string{"libc6", "libpython3.11-stdlib", "media-types", "readline-common", "libtar0"} {
		if deniedPackage(p) {
			t.Errorf("%s denied", p)
		}
	}
}

func TestDebianCmdErrorHasCommandAndStderr(t *testing.T) {
	_, err := runCmd(context.Background(), "", "ls", "/definitely/not/here")
	var ce *cmdError
	if !errors.As(err, &ce) {
		t.Fatalf("want *cmdError, got %v", err)
	}
	if !strings.Contains(err.Error(), "ls /definitely/not/here") || !strings.Contains(err.Error(), "No such file") {
		t.Errorf("error lacks command or stderr: %v", err)
	}
}

func TestDebianRootfsTar(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "usr/bin"), 0o755))
	must(os.WriteFile(filepath.Join(root, "usr/bin/python3.11"), []byte("elf"), 0o755))
	must(os.MkdirAll(filepath.Join(root, "usr/share/doc/x"), 0o755))
	must(finishRootfs(root, "3.11"))

	var buf bytes.Buffer
	must(writeRootfsTar(context.Background(), &buf, root))
	entries := map[string]*tar.Header{}
	tr := tar.NewReader(&buf)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		must(err)
		entries[h.Name] = h
		if h.Uid != 0 || h.Gid != 0 || !h.ModTime.Equal(time.Unix(rootfsEpoch, 0)) {
			t.Errorf("%s: uid %d gid %d mtime %v", h.Name, h.Uid, h.Gid, h.ModTime)
		}
	}
	if h := entries["usr/bin/python3"]; h == nil || h.Typeflag != tar.TypeSymlink || h.Linkname != "python3.11" {
		t.Errorf("python3 symlink: %+v", h)
	}
	if h := entries["usr/bin/python3.11"]; h == nil || h.Mode&0o7777 != 0o755 || h.Size != 3 {
		t.Errorf("python3.11: %+v", h)
	}
	if h := entries["tmp/"]; h == nil || h.Typeflag != tar.TypeDir || h.Mode&0o7777 != 0o1777 {
		t.Errorf("tmp: %+v", h)
	}
	for _, name := range []string{"opt/mcp-code-mode/", "etc/passwd", "etc/group"} {
		if entries[name] == nil {
			t.Errorf("missing %s", name)
		}
	}
	if entries["usr/share/doc/"] != nil {
		t.Error("usr/share/doc not dropped")
	}
}

// needApt skips (or under CI=true fails) when the host cannot assemble a
// Debian root filesystem.
func needApt(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"apt-cache", "apt-get", "dpkg-deb"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.SkipOrFail(t, "not a Debian host (%s missing): %v", tool, err)
		}
	}
}

func TestDebianUnknownPackage(t *testing.T) {
	needApt(t)
	_, err := resolveClosure(context.Background(), []string{"libc6", "mcp-code-mode-no-such-package"})
	if !errors.Is(err, errAptLists) || !strings.Contains(err.Error(), "mcp-code-mode-no-such-package") {
		t.Errorf("err = %v, want one naming the package and wrapping errAptLists", err)
	}
}

func TestDebianAssembleRootfs(t *testing.T) {
	if testing.Short() {
		t.Skip("downloads packages; skipped in -short mode")
	}
	needApt(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var log bytes.Buffer
	start := time.Now()
	rfs, err := assembleDebianRootfs(ctx, t.TempDir(), &log)
	if err != nil {
		t.Fatalf("%v\nlog:\n%s", err, log.String())
	}
	t.Logf("Python %s, %d packages in %s: %s", rfs.Python, len(rfs.Packages), time.Since(start).Round(time.Millisecond), strings.Join(rfs.Packages, " "))
	for _, p := range rfs.Packages {
		if deniedPackage(p) {
			t.Errorf("denied package %s pulled in", p)
		}
	}
	var size int64
	_ = filepath.WalkDir(rfs.Dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	t.Logf("rootfs: %.1f MB", float64(size)/1e6)
	for _, p := range []string{"bin/sh", "usr/bin/sh", "bin/bash", "bin/dash", "usr/bin/perl", "usr/bin/dpkg"} {
		if _, err := os.Lstat(filepath.Join(rfs.Dir, p)); err == nil {
			t.Errorf("rootfs has /%s", p)
		}
	}
	if target, err := os.Readlink(filepath.Join(rfs.Dir, "usr/bin/python3")); err != nil || target != "python"+rfs.Python {
		t.Errorf("usr/bin/python3 -> %q, %v", target, err)
	}
}
