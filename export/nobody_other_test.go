//go:build !unix

package export

import "testing"

// asUnprivileged reports false: the tests that use it run as they are.
func asUnprivileged(*testing.T) bool { return false }
