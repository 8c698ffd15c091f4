// Package archtest holds the repository's layout to docs/ARCHITECTURE.md:
// its test reads the table of who may import whom from that document and
// fails when a package imports outside its row, when a package has no row,
// when a library file outgrows 800 lines or a library function 80.
//
// Library code is every package except programs (cmd/, examples/) and
// generated files; tests are not counted.
package archtest
