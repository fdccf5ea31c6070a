//go:build race

package stagetest

const raceEnabled = true
