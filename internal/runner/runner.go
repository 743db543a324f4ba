// Package runner holds the half of mcp-code-mode that runs inside the sandbox
// container: the Python runner script (embedded in the binary and copied into
// the image) and the Go side of the line protocol it speaks with the host.
package runner

import (
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
)

// Script is the Python program that runs inside the container. It reads one
// start message, runs the model's code with the wrapped tools as async
// functions, and reports calls and the outcome on the protocol stream.
//
//go:embed runner.py
var Script []byte

// ScriptPath is where Script lives inside the sandbox image.
const ScriptPath = "/opt/mcp-code-mode/runner.py"

// Digest is the hex SHA-256 of Script. Images carry it in a label, so a
// stale image (built from another runner) can be told apart.
func Digest() string {
	sum := sha256.Sum256(Script)
	return hex.EncodeToString(sum[:])
}
