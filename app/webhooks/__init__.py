"""Client-side webhook helpers without Qt: endpoint checks, the delivery timeline, replay to a
local receiver and the signature checker."""
