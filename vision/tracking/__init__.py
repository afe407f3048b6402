"""Multi-ball tracking: identities, motion models and occlusion through a clip."""
