//! DescribeGroups (spec §3.6; Kafka: `GroupCoordinator.handleDescribeGroup`,
//! `GroupMetadata.summary`).

use super::*;

impl Coordinator {
    /// Members with their assignment while Stable; in other states the
    /// assignment is empty (the Scala coordinator's summary).
    pub(super) fn describe_group(&mut self, rid: RequestId) {
        let response = match self.group.as_ref() {
            None => DescribeGroupResponse {
                error: ErrorCode::None,
                state: GroupState::Dead,
                protocol_type: String::new(),
                protocol_data: String::new(),
                members: Vec::new(),
            },
            Some(g) => {
                let stable = g.state == GroupState::Stable;
                DescribeGroupResponse {
                    error: ErrorCode::None,
                    state: g.state,
                    protocol_type: g.protocol_type.as_deref().unwrap_or_default().to_string(),
                    protocol_data: if stable {
                        g.protocol_name.as_deref().unwrap_or_default().to_string()
                    } else {
                        String::new()
                    },
                    members: g
                        .members()
                        .iter()
                        .map(|m| DescribedMember {
                            member_id: m.member_id.clone(),
                            group_instance_id: m.group_instance_id.clone(),
                            client_id: m.client_id.clone(),
                            client_host: m.client_host.clone(),
                            assignment: if stable {
                                m.assignment.clone()
                            } else {
                                Vec::new()
                            },
                        })
                        .collect(),
                }
            }
        };
        self.respond(rid, Response::DescribeGroup(response), Rule::Describe);
    }
}
