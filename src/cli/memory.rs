//! The memory this machine gives kautzgen: its physical memory, or less when a control
//! group (a container, a Slurm job) caps it. Network runs whose estimated memory is above
//! it are refused ([`crate::network::memory`]).

/// The machine's memory in bytes: the least of MemTotal in /proc/meminfo and the control
/// group's memory.max; none when neither can be read.
pub fn machine_memory() -> Option<u64> {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| mem_total(&text));
    let group = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
        .ok()
        .and_then(|text| text.trim().parse::<u64>().ok());
    total.into_iter().chain(group).min()
}

/// `--max-memory`'s GiB, in bytes.
pub fn parse_gib(text: &str) -> Result<u64, String> {
    match text.parse::<f64>() {
        Ok(gib) if gib.is_finite() && gib > 0.0 => Ok((gib * f64::from(1 << 30)) as u64),
        _ => Err("expected a positive number of GiB, e.g. 16 or 0.5".to_string()),
    }
}

/// MemTotal of /proc/meminfo's `text`, in bytes.
fn mem_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::{mem_total, parse_gib};

    #[test]
    fn mem_total_is_read_in_kib() {
        let text = "MemTotal:       24606224 kB\nMemFree:         1234 kB\n";
        assert_eq!(mem_total(text), Some(24_606_224 * 1024));
        assert_eq!(mem_total("MemFree: 1 kB\n"), None);
    }

    #[test]
    fn max_memory_is_in_gib() {
        assert_eq!(parse_gib("0.5"), Ok(512 << 20));
        assert_eq!(parse_gib("16"), Ok(16 << 30));
        for bad in ["0", "-1", "x", "inf", "NaN"] {
            assert!(parse_gib(bad).is_err(), "{bad}");
        }
    }
}
