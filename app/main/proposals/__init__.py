"""Terminal-action proposals (seed 001): which requests may become a card, the proposal CLI's endpoint
and schema, and the card's life until the user confirms or declines."""
