"""What changed in the user's folders during each turn, whoever changed it: snapshots of the chat's
folders taken before and after every turn (a content-addressed copy of each file the first time its
content is seen), and the difference between two snapshots as a change set (harness/reference/
review-and-checkpoints.md)."""
