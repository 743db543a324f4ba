// Package testenv holds what the tests of several packages share: the gates
// that skip a test when what it needs is missing (and fail it under
// CI=true), and the check that the README's named tests exist.
package testenv
