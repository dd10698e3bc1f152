//! The cluster's APIs on the wire: Metadata (the single node, the topics,
//! created on demand as Kafka's `auto.create.topics.enable` does) and
//! FindCoordinator (node 1 coordinates every group).

use super::{s, Ctx, INVALID_TOPIC, UNKNOWN_TOPIC_OR_PARTITION};
use kafka_protocol::messages::*;

/// Kafka's rule for topic names (`Topic.validate`): 1 to 249 of `[a-zA-Z0-9._-]`.
fn valid_topic(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 249
        && name != "."
        && name != ".."
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_' || b == b'-')
}

impl Ctx<'_> {
    pub(super) fn metadata(&self, r: MetadataRequest) -> MetadataResponse {
        let v = self.version;
        let mut state = self.broker.lock();
        let mut out = MetadataResponse::default();
        let mut b = metadata_response::MetadataResponseBroker::default();
        b.node_id = BrokerId(1);
        b.host = s(&state.host);
        b.port = state.port;
        out.brokers = vec![b];
        out.cluster_id = Some(s("groupscope"));
        out.controller_id = BrokerId(1);
        // v0: an empty list means all topics; v1+: null means all.
        let wanted: Option<Vec<String>> = match &r.topics {
            None => None,
            Some(t) if t.is_empty() && v == 0 => None,
            // v10+ may name a topic by its id alone (KIP-516).
            Some(t) => Some(
                t.iter()
                    .filter_map(|t| match &t.name {
                        Some(n) => Some(n.to_string()),
                        None => state
                            .topics
                            .list()
                            .into_iter()
                            .map(|(n, _)| n)
                            .find(|n| crate::broker::consumer::topic_id(n) == t.topic_id),
                    })
                    .collect(),
            ),
        };
        let names: Vec<String> = match wanted {
            None => state.topics.list().into_iter().map(|(n, _)| n).collect(),
            Some(names) => names,
        };
        for name in names {
            let mut t = metadata_response::MetadataResponseTopic::default();
            t.name = Some(TopicName(s(&name)));
            if state.topics.get(&name).is_none() {
                if !valid_topic(&name) {
                    t.error_code = INVALID_TOPIC;
                } else if r.allow_auto_topic_creation {
                    // Kafka: auto.create.topics.enable, num.partitions.
                    let n = state.default_partitions;
                    state.create_topic(&name, n);
                } else {
                    t.error_code = UNKNOWN_TOPIC_OR_PARTITION;
                }
            }
            if let Some(logs) = state.topics.get(&name) {
                t.topic_id = crate::broker::consumer::topic_id(&name);
                for i in 0..logs.len() {
                    let mut p = metadata_response::MetadataResponsePartition::default();
                    p.partition_index = i as i32;
                    p.leader_id = BrokerId(1);
                    p.leader_epoch = -1;
                    p.replica_nodes = vec![BrokerId(1)];
                    p.isr_nodes = vec![BrokerId(1)];
                    t.partitions.push(p);
                }
            }
            out.topics.push(t);
        }
        self.broker.publish(&mut state);
        out
    }

    pub(super) fn find(&self, r: FindCoordinatorRequest) -> FindCoordinatorResponse {
        let state = self.broker.lock();
        let mut out = FindCoordinatorResponse::default();
        if self.version < 4 {
            out.node_id = BrokerId(1);
            out.host = s(&state.host);
            out.port = state.port;
        } else {
            for key in &r.coordinator_keys {
                let mut c = find_coordinator_response::Coordinator::default();
                c.key = key.clone();
                c.node_id = BrokerId(1);
                c.host = s(&state.host);
                c.port = state.port;
                out.coordinators.push(c);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topic_names_follow_kafka() {
        assert!(valid_topic("orders_1.x-y"));
        assert!(!valid_topic(""));
        assert!(!valid_topic(".."));
        assert!(!valid_topic("a b"));
        assert!(!valid_topic(&"a".repeat(250)));
    }
}
