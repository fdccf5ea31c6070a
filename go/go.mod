module blake2slab

go 1.22

require golang.org/x/crypto v0.31.0

require golang.org/x/sys v0.28.0 // indirect
