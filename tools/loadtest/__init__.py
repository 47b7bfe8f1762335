"""Load benchmark, cluster and WebSocket client code shared with the fault and soak tests."""
