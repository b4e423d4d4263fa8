// Package unprivileged runs a test as a user without privileges when the
// tests run as root, as CI's do: root ignores permission bits, so a test of
// what a server may not read or write would otherwise prove nothing there.
// It is for tests only.
package unprivileged
