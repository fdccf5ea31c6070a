// Times the official blake3 crate compiled natively, with the method the bench uses in
// its workers (src/core/bench/bench-core.ts): the input is bytes i % m, every contestant
// is warmed up while its batch grows, one sample lasts about the sample target, and
// rounds take one sample of every contestant at every size in an order rotated by one
// each round. The bench (`npm run bench -- --native`, src/node/native-run.ts) runs this
// program beside the JavaScript run, checks the digests it prints and keeps its samples
// in the same results document, as contestants whose engine is "native". Every setting
// (sizes, rounds, sample and warm-up times, the input's modulus m) comes from the bench
// as an argument, so the two never measure by different rules.
//
// Built twice: with the `sse41` feature the crate may use nothing wider than SSE4.1 (as
// wide as WebAssembly SIMD's 128 bits), the fair yardstick for stage 10; without it the
// crate picks the widest the processor has, and the program also times rayon's threads
// (the yardstick for stage 11).
//
// Output: one JSON object on stdout; errors on stderr with a non-zero exit.

use std::hint::black_box;
use std::time::Instant;

struct Options {
    sizes: Vec<usize>,
    rounds: usize,
    sample_ms: f64,
    warmup_ms: f64,
    /// Byte i of an input is i % input_modulus.
    input_modulus: usize,
    /// Hashes per sample fixed by an earlier call, as "id@size=n": skips calibration.
    iterations: Vec<(String, usize, u64)>,
}

#[derive(Clone, Copy)]
// The SSE4.1 build times one thread only.
#[cfg_attr(feature = "sse41", allow(dead_code))]
enum Way {
    OneThread,
    AllThreads,
}

struct Contestant {
    id: &'static str,
    way: Way,
}

struct Cell {
    size: usize,
    input: Vec<u8>,
    iterations: u64,
    ns_per_op: Vec<f64>,
    digest: [u8; 32],
}

#[cfg(feature = "sse41")]
const CONTESTANTS: &[Contestant] = &[Contestant { id: "native-sse41", way: Way::OneThread }];

#[cfg(not(feature = "sse41"))]
const CONTESTANTS: &[Contestant] = &[
    Contestant { id: "native-best", way: Way::OneThread },
    Contestant { id: "native-threads", way: Way::AllThreads },
];

fn hash(way: Way, input: &[u8]) -> [u8; 32] {
    match way {
        Way::OneThread => *blake3::hash(input).as_bytes(),
        Way::AllThreads => *blake3::Hasher::new().update_rayon(input).finalize().as_bytes(),
    }
}

/// Times `n` hashes; returns the elapsed milliseconds and the last digest.
fn batch(way: Way, input: &[u8], n: u64) -> (f64, [u8; 32]) {
    let start = Instant::now();
    let mut digest = [0u8; 32];
    for _ in 0..n {
        // black_box on both sides: the compiler may neither hoist the hash out of the loop nor drop it.
        digest = hash(way, black_box(input));
        black_box(&digest);
    }
    (start.elapsed().as_secs_f64() * 1e3, digest)
}

/// Warm-up and calibration as in bench-core's prepare(): grow the batch until the warm-up
/// time has passed and a batch lasts a quarter of the sample target.
fn calibrate(way: Way, input: &[u8], options: &Options) -> u64 {
    let started = Instant::now();
    let (first_ms, _) = batch(way, input, 1);
    if first_ms >= options.warmup_ms && first_ms >= options.sample_ms {
        return 1;
    }
    let mut n: u64 = 1;
    let (mut ms, _) = batch(way, input, n);
    while started.elapsed().as_secs_f64() * 1e3 < options.warmup_ms || ms < options.sample_ms / 4.0 {
        if ms < options.sample_ms / 4.0 {
            n *= 2;
        }
        ms = batch(way, input, n).0;
    }
    ((n as f64 * options.sample_ms / ms).ceil() as u64).max(1)
}

fn pattern(length: usize, modulus: usize) -> Vec<u8> {
    (0..length).map(|i| (i % modulus) as u8).collect()
}

fn parse_list<T: std::str::FromStr>(text: &str, option: &str) -> Result<Vec<T>, String> {
    text.split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse::<T>().map_err(|_| format!("{option}: cannot read \"{s}\"")))
        .collect()
}

fn parse_iterations(text: &str) -> Result<Vec<(String, usize, u64)>, String> {
    let mut out = Vec::new();
    for item in text.split(',').filter(|s| !s.is_empty()) {
        let bad = || format!("--iterations: \"{item}\" is not id@size=n");
        let (id, rest) = item.split_once('@').ok_or_else(bad)?;
        let (size, n) = rest.split_once('=').ok_or_else(bad)?;
        out.push((id.to_string(), size.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?));
    }
    Ok(out)
}

fn parse_args(args: &[String]) -> Result<Options, String> {
    let (mut sizes, mut rounds, mut sample_ms, mut warmup_ms, mut input_modulus) = (None, None, None, None, None);
    let mut iterations = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).ok_or_else(|| format!("{} needs a value", args[i]))?;
        match args[i].as_str() {
            "--sizes" => sizes = Some(parse_list::<usize>(value, "--sizes")?),
            "--rounds" => rounds = Some(value.parse::<usize>().map_err(|_| "--rounds needs a whole number".to_string())?),
            "--sample-ms" => sample_ms = Some(value.parse::<f64>().map_err(|_| "--sample-ms needs a number".to_string())?),
            "--warmup-ms" => warmup_ms = Some(value.parse::<f64>().map_err(|_| "--warmup-ms needs a number".to_string())?),
            "--input-modulus" => input_modulus = Some(value.parse::<usize>().map_err(|_| "--input-modulus needs a whole number".to_string())?),
            "--iterations" => iterations = parse_iterations(value)?,
            other => return Err(format!("unknown option \"{other}\"")),
        }
        i += 2;
    }
    // No defaults here: the bench's own (src/core/bench/plan.ts) always come as arguments.
    let missing = |name: &str| format!("{name} is required (the bench passes all of its settings)");
    let options = Options {
        sizes: sizes.ok_or_else(|| missing("--sizes"))?,
        rounds: rounds.ok_or_else(|| missing("--rounds"))?,
        sample_ms: sample_ms.ok_or_else(|| missing("--sample-ms"))?,
        warmup_ms: warmup_ms.ok_or_else(|| missing("--warmup-ms"))?,
        input_modulus: input_modulus.ok_or_else(|| missing("--input-modulus"))?,
        iterations,
    };
    if options.sizes.is_empty() || options.rounds == 0 || !(options.sample_ms > 0.0) || !(1..=256).contains(&options.input_modulus) {
        return Err("needs at least one size, one round, a positive sample length and a modulus from 1 to 256".to_string());
    }
    Ok(options)
}

/// The widest instructions the crate's own detection picks here (it checks the same flags).
fn widest() -> &'static str {
    if cfg!(feature = "sse41") {
        return if std::is_x86_feature_detected!("sse4.1") { "SSE4.1" } else { "portable" };
    }
    if std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512vl") {
        "AVX-512"
    } else if std::is_x86_feature_detected!("avx2") {
        "AVX2"
    } else if std::is_x86_feature_detected!("sse4.1") {
        "SSE4.1"
    } else {
        "portable"
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn to_json(cells: &[Vec<Cell>]) -> String {
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let mut out = format!("{{\"simd\":\"{}\",\"threads\":{},\"contestants\":[", widest(), threads);
    for (c, (contestant, runs)) in CONTESTANTS.iter().zip(cells).enumerate() {
        if c > 0 {
            out.push(',');
        }
        out.push_str(&format!("{{\"id\":\"{}\",\"runs\":[", contestant.id));
        for (r, cell) in runs.iter().enumerate() {
            let samples: Vec<String> = cell.ns_per_op.iter().map(|ns| format!("{ns:.3}")).collect();
            out.push_str(&format!(
                "{}{{\"size\":{},\"iterations\":{},\"digest\":\"{}\",\"nsPerOp\":[{}]}}",
                if r > 0 { "," } else { "" },
                cell.size,
                cell.iterations,
                hex(&cell.digest),
                samples.join(",")
            ));
        }
        out.push_str("]}");
    }
    out.push_str("]}");
    out
}

fn run(options: &Options) -> Vec<Vec<Cell>> {
    let mut cells: Vec<Vec<Cell>> = CONTESTANTS
        .iter()
        .map(|contestant| {
            options
                .sizes
                .iter()
                .map(|&size| {
                    let input = pattern(size, options.input_modulus);
                    let fixed = options.iterations.iter().find(|(id, s, _)| id == contestant.id && *s == size);
                    let iterations = match fixed {
                        // Still warmed up, only not recounted.
                        Some(&(_, _, n)) => {
                            calibrate(contestant.way, &input, options);
                            n
                        }
                        None => calibrate(contestant.way, &input, options),
                    };
                    Cell { size, input, iterations, ns_per_op: Vec::new(), digest: [0; 32] }
                })
                .collect()
        })
        .collect();
    let count = CONTESTANTS.len();
    for round in 0..options.rounds {
        for s in 0..options.sizes.len() {
            for k in 0..count {
                let c = (k + round) % count;
                let cell = &mut cells[c][s];
                let (ms, digest) = batch(CONTESTANTS[c].way, &cell.input, cell.iterations);
                cell.ns_per_op.push(ms * 1e6 / cell.iterations as f64);
                cell.digest = digest;
            }
        }
        eprintln!("native: round {}/{}", round + 1, options.rounds);
    }
    cells
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse_args(&args) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("blake3-native: {message}");
            std::process::exit(2);
        }
    };
    let cells = run(&options);
    println!("{}", to_json(&cells));
}
