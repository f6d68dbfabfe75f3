/** The models wire is the contract's (SPEC §3). */
export { modelHistorySchema, modelListSchema, modelMetricsListSchema, modelSchema, statusMapSchema, systemModelMetricsSchema } from "@contract/models";
export type { HourlyFigures, Model, ModelAlert, ModelHistory, ModelMetrics, ReliabilityFigures, StatusBand, SystemModelMetrics } from "@contract/models";
