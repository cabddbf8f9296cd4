/** The endpoints' shape and their hand-over to the test workers are a contract (stack writes, kit reads). */
export { type InfraEndpoints, TEST_ENDPOINTS_ENV, testEndpoints } from '@decor/contracts/test-endpoints';
