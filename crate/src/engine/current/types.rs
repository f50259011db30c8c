//! Host types (SPEC 11.5 and 11.12, C2): the name of a host's entry before it was made unique.
//! Hosts expanded from one entry share its type, and so do entries with equal names. Only
//! Current reads types: it considers one empty host per type.

use crate::model::Topology;

/// Each host's type, as an index into the type names, which are in order of first appearance.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HostTypes {
    /// Per host, in topology order: its type's index in `names`.
    pub of: Vec<u32>,
    /// The distinct type names, in order of first appearance.
    pub names: Vec<String>,
}

impl HostTypes {
    /// Types from each host's type name, in host order.
    pub fn from_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut types = HostTypes::default();
        for name in names {
            let id = match types.names.iter().position(|n| n == name) {
                Some(id) => id,
                None => {
                    types.names.push(name.to_string());
                    types.names.len() - 1
                }
            };
            types.of.push(id as u32);
        }
        types
    }

    /// The types of a topology's hosts, in the order of [`Topology::hosts`]: each host's type
    /// is its group's (host entry's) `name`.
    pub fn of_topology(topology: &Topology) -> Self {
        let names = topology.clusters.iter().flat_map(|c| {
            c.groups
                .iter()
                .flat_map(|g| std::iter::repeat_n(g.name.as_str(), g.count as usize))
        });
        HostTypes::from_names(names)
    }

    /// The type name of host `h`.
    pub fn name(&self, h: usize) -> &str {
        &self.names[self.of[h] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Types are numbered by first appearance; equal names share one.
    #[test]
    fn equal_names_share_a_type() {
        let t = HostTypes::from_names(["small", "big", "small", "gpu"]);
        assert_eq!(t.of, vec![0, 1, 0, 2]);
        assert_eq!(t.names, vec!["small", "big", "gpu"]);
        assert_eq!(t.name(2), "small");
    }
}
