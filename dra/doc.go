// Package dra is Disk Resident Arrays for goga.
package dra
