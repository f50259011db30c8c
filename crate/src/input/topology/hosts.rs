//! A host entry of a topology: its count, CPU, memory and GPUs.

use super::*;

impl Walk {
    pub(super) fn host(&mut self, v: &Value, path: &str) -> Option<HostGroup> {
        let obj = self.object(v, path, "a host object")?;
        self.check_keys(obj, path, "host");
        let name = self
            .string(obj, path, "name")
            .unwrap_or_else(|| "Host".to_string());
        let count = match obj.get("count") {
            Some(c) => self
                .int(c, &join(path, "count"), 1, u32::MAX as i64)
                .map(|n| n as u32),
            None => Some(1),
        };
        let cpu = self.cpu(obj, path);
        let memory = self.memory(obj, path);
        let gpus = match obj.get("gpu") {
            Some(g) => self.gpu(g, &join(path, "gpu")),
            None => Some(vec![]),
        };
        let power = match obj.get("cpuPowerModel") {
            Some(pm) => self.power_model(pm, &join(path, "cpuPowerModel")),
            None => Some(PowerModel::default()),
        };
        let (cores, core_speed_mhz) = cpu?;
        Some(HostGroup {
            name,
            count: count?,
            cores,
            core_speed_mhz,
            memory_mib: memory?,
            gpus: gpus?,
            power: power?,
        })
    }

    pub(super) fn cpu(&mut self, host: &Map<String, Value>, path: &str) -> Option<(u32, f64)> {
        let (v, cpath) =
            self.required(host, path, &["cpu"], "the host's CPU: coreCount, coreSpeed")?;
        let obj = self.object(v, &cpath, "a CPU object with coreCount and coreSpeed")?;
        self.check_keys(obj, &cpath, "cpu");
        let cores = self
            .required(
                obj,
                &cpath,
                &["coreCount"],
                "cores per CPU, an integer >= 1",
            )
            .and_then(|(v, p)| self.int(v, &p, 1, u32::MAX as i64));
        let speed = self
            .required(
                obj,
                &cpath,
                &["coreSpeed"],
                "the speed of a core: MHz or a string such as \"2.1 GHz\"",
            )
            .and_then(|(v, p)| self.quantity(v, &p, Quantity::Frequency));
        let count = match obj.get("count") {
            Some(c) => self.int(c, &join(&cpath, "count"), 1, u32::MAX as i64),
            None => Some(1),
        };
        let (cores, count, speed) = (cores?, count?, speed?);
        match u32::try_from(cores * count) {
            Ok(total) => Some((total, speed)),
            Err(_) => {
                self.p.error(
                    &cpath,
                    format!("{count} CPUs of {cores} cores is more cores than supported"),
                );
                None
            }
        }
    }

    pub(super) fn memory(&mut self, host: &Map<String, Value>, path: &str) -> Option<i64> {
        let (v, mpath) = self.required(host, path, &["memory"], "the host's memory")?;
        let obj = self.object(
            v,
            &mpath,
            "a memory object with \"memorySize\" (legacy) or \"size\" (SDK)",
        )?;
        self.check_keys(obj, &mpath, "memory");
        let (v, spath) = self.required(
            obj,
            &mpath,
            &["memorySize", "size"],
            "the memory size: MiB or a string such as \"16 GiB\"",
        )?;
        // OpenDC3 truncates an SDK size to whole MiB (SPEC 11.5); legacy sizes round.
        let mib = self.quantity(v, &spath, Quantity::DataSize)?;
        let mib = if self.sdk { mib.trunc() } else { mib.round() };
        match units::to_i64(mib) {
            Some(m) => Some(m),
            None => {
                self.p.error(spath, "the memory size is too large");
                None
            }
        }
    }

    pub(super) fn gpu(&mut self, v: &Value, path: &str) -> Option<Vec<GpuSpec>> {
        let obj = self.object(v, path, "a GPU object with coreCount and coreSpeed")?;
        self.check_keys(obj, path, "gpu");
        let message = "GPU power is not modelled: GPUs count for the VGpu filter and weigher only";
        self.p
            .warn_once("gpu-power", Diagnostic::warning(path, message), Anchor::Key);
        let cores = self
            .required(obj, path, &["coreCount"], "cores per GPU, an integer >= 0")
            .and_then(|(v, p)| self.int(v, &p, 0, u32::MAX as i64));
        let speed = self
            .required(
                obj,
                path,
                &["coreSpeed"],
                "the speed of a GPU core: MHz or a string such as \"1.4 GHz\"",
            )
            .and_then(|(v, p)| self.quantity(v, &p, Quantity::Frequency));
        let count = match obj.get("count") {
            Some(c) => self.int(c, &join(path, "count"), 0, 1024),
            None => Some(1),
        };
        let gpu = GpuSpec {
            cores: cores? as u32,
            core_speed_mhz: speed?,
        };
        Some(vec![gpu; count? as usize])
    }
}
