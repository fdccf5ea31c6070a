// Nothing to run: this package exists to pin b3sum in Cargo.lock (see Cargo.toml).
fn main() {}
