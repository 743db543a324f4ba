package sandbox

import (
	"archive/tar"
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// This file assembles a minimal root filesystem holding Python from the host's
// Debian packages (apt-cache, apt-get download, dpkg-deb), so the sandbox
// image can be built when no container registry is reachable.

// rootfsEpoch (2000-01-01 UTC, in Unix seconds) is the modification time
// written for every entry of the rootfs tar, so that the same packages give a
// byte-identical tar and the engine's build cache can reuse the layer.
const rootfsEpoch = 946684800

// debianRootfs is a root filesystem assembled from Debian packages.
type debianRootfs struct {
	Dir      string   // the root directory
	Python   string   // Python version, e.g. "3.11"
	Packages []string // the packages unpacked into Dir, sorted
}

// depAlt is one alternative of a dependency as printed by apt-cache depends.
type depAlt struct {
	Name      string   // package name, without "<>" and architecture
	Virtual   bool     // printed as "<name>": no package has that name
	Providers []string // packages listed under the dependency, best first
}

// depGroup is one dependency: a list of alternatives, the first preferred.
type depGroup []depAlt

// parseAptDepends parses the output of
//
//	apt-cache depends --no-recommends ... PKG...
//
// into the Depends and PreDepends groups of each package. Other dependency
// types are ignored. The format is
//
//	pkg
//	  PreDepends: libc6
//	 |Depends: media-types        (alternative: "|" means "or the next one")
//	  Depends: mime-support
//	  Depends: <debconf-2.0>      (virtual package ...)
//	    cdebconf                  (... and the packages providing it)
//	    debconf
func parseAptDepends(out []byte) map[string][]depGroup {
	res := make(map[string][]depGroup)
	var (
		pkg     string
		pending depGroup // alternatives of a group still open ("|")
		last    *depAlt  // the alternative provider lines belong to
	)
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		switch {
		case line == "":
			continue
		case !strings.HasPrefix(line, " "): // a package heading
			pkg = stripArch(strings.Trim(line, "<>"))
			if _, ok := res[pkg]; !ok {
				res[pkg] = nil
			}
			pending, last = nil, nil
		case strings.HasPrefix(line, "    "): // a provider of the previous dependency
			if last != nil {
				last.Providers = append(last.Providers, stripArch(strings.TrimSpace(line)))
			}
		default: // "  Type: name" or " |Type: name"
			if pkg == "" {
				continue
			}
			or := line[1] == '|'
			typ, name, ok := strings.Cut(strings.TrimLeft(line, " |"), ": ")
			if !ok {
				last = nil
				continue
			}
			if typ != "Depends" && typ != "PreDepends" {
				// An alternative group never mixes types; drop any open one.
				pending, last = nil, nil
				continue
			}
			alt := depAlt{Name: stripArch(strings.Trim(name, "<>")), Virtual: strings.HasPrefix(name, "<")}
			pending = append(pending, alt)
			if or {
				last = &pending[len(pending)-1]
				continue
			}
			res[pkg] = append(res[pkg], pending)
			g := res[pkg][len(res[pkg])-1]
			last = &g[len(g)-1]
			pending = nil
		}
	}
	return res
}

// stripArch removes an architecture qualifier ("libc6:amd64" -> "libc6").
func stripArch(name string) string {
	name, _, _ = strings.Cut(name, ":")
	return name
}

// choose returns the package that satisfies the group: the first alternative
// that is neither denied nor virtual, or for a virtual one its first provider
// that is not denied. ok is false when nothing acceptable is left.
func (g depGroup) choose(denied func(string) bool) (pkg string, ok bool) {
	for _, a := range g {
		if denied(a.Name) {
			continue
		}
		if !a.Virtual {
			return a.Name, true
		}
		for _, p := range a.Providers {
			if !denied(p) {
				return p, true
			}
		}
	}
	return "", false
}

// deniedPackage reports whether the dependency closure must not follow name:
// package-management tools, perl, shells and configuration frameworks that
// only serve maintainer scripts, which are never run here.
func deniedPackage(name string) bool {
	switch name {
	case "dpkg", "install-info", "tar", "perl", "perl-base", "mailcap", "mime-support",
		"debconf", "cdebconf", "debconf-2.0", "ucf", "sensible-utils",
		"dash", "bash", "busybox", "coreutils", "debianutils", "util-linux",
		"base-files", "base-passwd", "libc-bin", "python3-minimal", "python3":
		return true
	}
	return strings.HasPrefix(name, "perl-modules-") || strings.HasPrefix(name, "libperl")
}

// parseDefaultPython finds the Python version that Debian's python3-minimal
// depends on in the output of "apt-cache depends python3-minimal".
func parseDefaultPython(out []byte) (string, error) {
	re := regexp.MustCompile(`(?m)^\s*\|?(?:Pre)?Depends: <?python(3\.\d+)-minimal>?\s*$`)
	m := re.FindSubmatch(out)
	if m == nil {
		return "", errors.New("no python3.X-minimal dependency in apt-cache depends python3-minimal")
	}
	return string(m[1]), nil
}

// aptDependsBatch is how many packages one apt-cache depends call asks about.
const aptDependsBatch = 64

// resolveClosure returns the sorted dependency closure of roots (Depends and
// PreDepends only, denied packages not followed), computed breadth-first with
// apt-cache depends.
func resolveClosure(ctx context.Context, roots []string) ([]string, error) {
	seen := make(map[string]bool)
	var queue []string
	for _, r := range roots {
		if !seen[r] {
			seen[r] = true
			queue = append(queue, r)
		}
	}
	for len(queue) > 0 {
		batch := queue[:min(len(queue), aptDependsBatch)]
		queue = queue[len(batch):]
		args := append([]string{"depends", "--no-recommends", "--no-suggests", "--no-conflicts",
			"--no-breaks", "--no-replaces", "--no-enhances"}, batch...)
		out, err := runCmd(ctx, "", "apt-cache", args...)
		if err != nil {
			return nil, err
		}
		deps := parseAptDepends(out)
		for _, p := range batch {
			groups, ok := deps[p]
			if !ok {
				return nil, fmt.Errorf("apt-cache depends: package %s not found: %w", p, errAptLists)
			}
			for _, g := range groups {
				d, ok := g.choose(deniedPackage)
				if ok && !seen[d] {
					seen[d] = true
					queue = append(queue, d)
				}
			}
		}
	}
	pkgs := make([]string, 0, len(seen))
	for p := range seen {
		pkgs = append(pkgs, p)
	}
	slices.Sort(pkgs)
	return pkgs, nil
}

// errAptLists marks failures that a missing or stale apt package list
// explains (unknown package, no candidate, 404 from the mirror).
var errAptLists = errors.New("apt package lists missing or stale")

// looksLikeStaleLists reports whether apt's stderr says its package lists are
// missing or out of date.
func looksLikeStaleLists(stderr string) bool {
	for _, s := range []string{"Unable to locate package", "No packages found", "has no installation candidate",
		"Can't select candidate version", "404  Not Found", "404 Not Found", "Failed to fetch"} {
		if strings.Contains(stderr, s) {
			return true
		}
	}
	return false
}

// downloadDebs runs apt-get download for pkgs in dir and returns the paths of
// the .deb files, one per package.
func downloadDebs(ctx context.Context, dir string, pkgs []string) ([]string, error) {
	args := append([]string{"download", "-q"}, pkgs...)
	if _, err := runCmd(ctx, dir, "apt-get", args...); err != nil {
		var ee *cmdError
		if errors.As(err, &ee) && looksLikeStaleLists(ee.Stderr) {
			return nil, fmt.Errorf("apt-get download: %w (%w)", err, errAptLists)
		}
		return nil, fmt.Errorf("apt-get download: %w", err)
	}
	debs, err := filepath.Glob(filepath.Join(dir, "*.deb"))
	if err != nil {
		return nil, fmt.Errorf("apt-get download: %w", err)
	}
	if len(debs) != len(pkgs) {
		return nil, fmt.Errorf("apt-get download: got %d .deb files for %d packages", len(debs), len(pkgs))
	}
	slices.Sort(debs)
	return debs, nil
}

// extractDebs unpacks the data part of each .deb into root (dpkg-deb -x;
// maintainer scripts are not run).
func extractDebs(ctx context.Context, root string, debs []string) error {
	for _, d := range debs {
		if _, err := runCmd(ctx, "", "dpkg-deb", "-x", d, root); err != nil {
			return fmt.Errorf("dpkg-deb: %w", err)
		}
	}
	return nil
}

// finishRootfs turns the unpacked packages into a usable root: python3
// symlink, /tmp, the runner's directory, a passwd/group holding only nobody,
// and no documentation.
func finishRootfs(root, python string) error {
	drop := []string{"usr/share/doc", "usr/share/doc-base", "usr/share/man", "usr/share/info",
		"usr/share/locale", "usr/share/lintian", "usr/share/bug"}
	// glibc's iconv modules (8 MB): Python has its own codecs and no stdlib
	// module calls iconv.
	paths, _ := filepath.Glob(filepath.Join(root, "usr/lib/*/gconv"))
	for _, d := range drop {
		paths = append(paths, filepath.Join(root, d))
	}
	for _, d := range paths {
		if err := os.RemoveAll(d); err != nil {
			return fmt.Errorf("rootfs: %w", err)
		}
	}
	bin := filepath.Join(root, "usr/bin")
	if _, err := os.Stat(filepath.Join(bin, "python"+python)); err != nil {
		return fmt.Errorf("rootfs: no python%s binary: %w", python, err)
	}
	link := filepath.Join(bin, "python3")
	if err := os.Remove(link); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("rootfs: %w", err)
	}
	if err := os.Symlink("python"+python, link); err != nil {
		return fmt.Errorf("rootfs: %w", err)
	}
	for _, d := range []struct {
		path string
		mode fs.FileMode
	}{{"tmp", 0o777 | fs.ModeSticky}, {"opt/mcp-code-mode", 0o755}, {"etc", 0o755}} {
		p := filepath.Join(root, d.path)
		if err := os.MkdirAll(p, 0o755); err != nil {
			return fmt.Errorf("rootfs: %w", err)
		}
		if err := os.Chmod(p, d.mode); err != nil { // MkdirAll is subject to umask
			return fmt.Errorf("rootfs: %w", err)
		}
	}
	for name, body := range map[string]string{
		"etc/passwd": "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
		"etc/group":  "nogroup:x:65534:\n",
	} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			return fmt.Errorf("rootfs: %w", err)
		}
	}
	return nil
}

// writeRootfsTar writes the tree under root to w as a tar stream: symlinks
// stay symlinks, permission bits are kept, every entry is owned by 0:0 and
// carries the same modification time.
func writeRootfsTar(ctx context.Context, w io.Writer, root string) error {
	tw := tar.NewWriter(w)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(root, path)
		if err != nil || rel == "." {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		var target string
		if info.Mode()&fs.ModeSymlink != 0 {
			if target, err = os.Readlink(path); err != nil {
				return err
			}
		}
		hdr, err := tar.FileInfoHeader(info, target)
		if err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		hdr.Name = filepath.ToSlash(rel)
		if info.IsDir() {
			hdr.Name += "/"
		}
		hdr.Uid, hdr.Gid, hdr.Uname, hdr.Gname = 0, 0, "root", "root"
		hdr.ModTime, hdr.AccessTime, hdr.ChangeTime = time.Unix(rootfsEpoch, 0), time.Time{}, time.Time{}
		hdr.PAXRecords = nil
		hdr.Format = tar.FormatUnknown
		if err := tw.WriteHeader(hdr); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if _, err := io.Copy(tw, f); err != nil {
			return fmt.Errorf("%s: %w", rel, err)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("rootfs tar: %w", err)
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("rootfs tar: %w", err)
	}
	return nil
}

// assembleDebianRootfs builds a root filesystem holding Debian's default
// Python under work/rootfs from the host's apt sources. If apt's package lists
// turn out to be missing or stale it runs apt-get update once (as root) and
// tries again.
func assembleDebianRootfs(ctx context.Context, work string, log io.Writer) (debianRootfs, error) {
	rfs, err := assembleDebianRootfsOnce(ctx, work, log)
	if err == nil || !errors.Is(err, errAptLists) {
		return rfs, err
	}
	if os.Geteuid() != 0 {
		return rfs, fmt.Errorf("%w; run apt-get update as root and try again", err)
	}
	fmt.Fprintf(log, "sandbox: %v; running apt-get update\n", err)
	if _, uerr := runCmd(ctx, "", "apt-get", "update", "-q"); uerr != nil {
		return rfs, fmt.Errorf("%w; apt-get update failed too: %w", err, uerr)
	}
	rfs, err = assembleDebianRootfsOnce(ctx, work, log)
	if err != nil {
		return rfs, fmt.Errorf("after apt-get update: %w", err)
	}
	return rfs, nil
}

func assembleDebianRootfsOnce(ctx context.Context, work string, log io.Writer) (debianRootfs, error) {
	out, err := runCmd(ctx, "", "apt-cache", "depends", "python3-minimal")
	if err != nil {
		var ee *cmdError
		if errors.As(err, &ee) && looksLikeStaleLists(ee.Stderr) {
			err = fmt.Errorf("%w (%w)", err, errAptLists)
		}
		return debianRootfs{}, err
	}
	py, err := parseDefaultPython(out)
	if err != nil {
		return debianRootfs{}, fmt.Errorf("apt-cache depends python3-minimal: %w", err)
	}
	fmt.Fprintf(log, "sandbox: assembling a Python %s root filesystem from Debian packages\n", py)
	pkgs, err := resolveClosure(ctx, []string{"python" + py + "-minimal", "libpython" + py + "-stdlib"})
	if err != nil {
		return debianRootfs{}, err
	}
	fmt.Fprintf(log, "sandbox: %d packages: %s\n", len(pkgs), strings.Join(pkgs, " "))

	debDir := filepath.Join(work, "debs")
	root := filepath.Join(work, "rootfs")
	for _, d := range []string{debDir, root} {
		if err := os.RemoveAll(d); err != nil {
			return debianRootfs{}, fmt.Errorf("rootfs: %w", err)
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return debianRootfs{}, fmt.Errorf("rootfs: %w", err)
		}
	}
	debs, err := downloadDebs(ctx, debDir, pkgs)
	if err != nil {
		return debianRootfs{}, err
	}
	if err := extractDebs(ctx, root, debs); err != nil {
		return debianRootfs{}, err
	}
	if err := os.RemoveAll(debDir); err != nil {
		return debianRootfs{}, fmt.Errorf("rootfs: %w", err)
	}
	if err := finishRootfs(root, py); err != nil {
		return debianRootfs{}, err
	}
	return debianRootfs{Dir: root, Python: py, Packages: pkgs}, nil
}

// cmdError is a failed external command, with the end of its stderr.
type cmdError struct {
	Cmd    string // command line, long argument lists shortened
	Err    error
	Stderr string // last part of stderr
}

func (e *cmdError) Error() string {
	if e.Stderr == "" {
		return fmt.Sprintf("%s: %v", e.Cmd, e.Err)
	}
	return fmt.Sprintf("%s: %v: %s", e.Cmd, e.Err, e.Stderr)
}

func (e *cmdError) Unwrap() error { return e.Err }

// runCmd runs name with args in dir (the current directory if ""), in the C
// locale so that apt's output is not translated, and returns its stdout.
func runCmd(ctx context.Context, dir, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=C", "LANG=C", "LANGUAGE=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		line := name
		if len(args) > 8 {
			line += " " + strings.Join(args[:8], " ") + fmt.Sprintf(" ... (%d more)", len(args)-8)
		} else if len(args) > 0 {
			line += " " + strings.Join(args, " ")
		}
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return stdout.Bytes(), &cmdError{Cmd: line, Err: err, Stderr: tail(stderr.String(), 1500)}
	}
	return stdout.Bytes(), nil
}

// tail returns the last n bytes of s, trimmed, starting at a line if it can.
func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
		s = s[i+1:]
	}
	return "..." + s
}
