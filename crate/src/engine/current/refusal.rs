//! Spawn refusal (SPEC 11.12, C13): OpenDC 3's host refuses a task whose memory exceeds what
//! the tasks running there leave, or whose core count exceeds the host's cores. Under Current the
//! playground terminates such a task at once (OpenDC loses it and may never finish).

use super::super::host::{Demand, HostState};

/// Why a chosen host refused the task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// memory − (memory of the tasks running there) < task.memory.
    Memory { needs: i64, free: i64 },
    /// cores < task.cpuCount.
    Cores { needs: u32, has: u32 },
}

/// The refusal of `d` by host `h`, `None` when the host starts it (memory is checked first).
pub fn check(h: &HostState, d: &Demand) -> Option<Refusal> {
    if h.available_memory < d.memory {
        Some(Refusal::Memory {
            needs: d.memory,
            free: h.available_memory,
        })
    } else if h.cores < d.cpu_count {
        Some(Refusal::Cores {
            needs: d.cpu_count,
            has: h.cores,
        })
    } else {
        None
    }
}

impl Refusal {
    /// The termination reason of C13, naming `host`.
    pub fn reason(&self, host: &str) -> String {
        match *self {
            Refusal::Memory { needs, free } => {
                format!("OpenDC3 refuses to start it on {host} (needs {needs} MiB, {free} free)")
            }
            Refusal::Cores { needs, has } => {
                format!(
                    "OpenDC3 refuses to start it on {host} (needs {needs} cores, host has {has})"
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 4096 MiB with 3072 provisioned leaves 1024: a task of 2048 MiB is refused for memory; a
    /// task of 1024 MiB and 8 cores on a 4-core host for cores; 1024 MiB and 4 cores starts.
    #[test]
    fn memory_then_cores() {
        let h = HostState {
            available_memory: 1024,
            instance_count: 1,
            ..HostState::empty(4, 2000.0, 4096, 0)
        };
        let d = |cpu_count, memory| Demand {
            cpu_count,
            memory,
            ..Demand::default()
        };
        let r = check(&h, &d(8, 2048));
        assert_eq!(
            r,
            Some(Refusal::Memory {
                needs: 2048,
                free: 1024
            })
        );
        assert_eq!(
            r.map(|r| r.reason("A")).as_deref(),
            Some("OpenDC3 refuses to start it on A (needs 2048 MiB, 1024 free)")
        );
        let r = check(&h, &d(8, 1024));
        assert_eq!(
            r.map(|r| r.reason("A")).as_deref(),
            Some("OpenDC3 refuses to start it on A (needs 8 cores, host has 4)")
        );
        assert_eq!(check(&h, &d(4, 1024)), None);
    }
}
