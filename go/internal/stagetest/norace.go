//go:build !race

package stagetest

const raceEnabled = false
