// The async boundary: shared modules (React, the store, antd) are resolved before any of them runs.
import('./bootstrap');
